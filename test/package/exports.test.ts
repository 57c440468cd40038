import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// Issue 16 (first pieces): subpath exports through the package's own `exports`, and the runtime
// importable without the CLI's and the REPL's modules. Run from a folder whose node_modules/adk is
// this package, as a user's project would see it (built dist/, `npm test` builds first).
const root = resolve('.');
const PROBE = resolve('test/package/fixtures/import-probe.mjs');
const HOOK = pathToFileURL(resolve('test/support/load-hook.mjs')).href;

function probe(...specifiers: string[]): { exports: Record<string, string[]>; loaded: string[] } {
  const app = mkdtempSync(join(tmpdir(), 'adk-consumer-'));
  mkdirSync(join(app, 'node_modules'));
  symlinkSync(root, join(app, 'node_modules', 'adk'));
  writeFileSync(join(app, 'package.json'), '{"type":"module"}');
  cpSync(PROBE, join(app, 'probe.mjs'));
  return JSON.parse(execFileSync(process.execPath, [join(app, 'probe.mjs'), HOOK, ...specifiers], { cwd: app, encoding: 'utf8' }));
}

describe('package exports', () => {
  it('adk/stores, adk/tools, adk/mcp, adk/config and adk/testing each resolve, with what they promise', () => {
    const { exports } = probe('adk/stores', 'adk/tools', 'adk/mcp', 'adk/config', 'adk/testing', 'adk/conversation');
    expect(exports['adk/stores']).toEqual(expect.arrayContaining(['SessionStore', 'openAdkStores', 'openKeyValueStore', 'lockSession']));
    expect(exports['adk/tools']).toEqual(expect.arrayContaining(['builtinTools', 'ToolRegistry', 'agentTool', 'defineTool', 'shellTool']));
    expect(exports['adk/mcp']).toEqual(expect.arrayContaining(['McpServerPool']));
    expect(exports['adk/config']).toEqual(expect.arrayContaining(['validateConfig', 'createTeam', 'loadConfigFile']));
    expect(exports['adk/conversation']).toEqual(expect.arrayContaining(['Conversation', 'openAdkStores', 'toHistory']));
    expect(exports['adk/testing']).toEqual(expect.arrayContaining(['ScriptedChatModel', 'createDemoModel', 'InMemoryCheckpointStore']));
  });

  it('one CheckpointStore and one InMemoryCheckpointStore, whichever entry they come from', async () => {
    const core = await import('../../src/core/index.js');
    const testing = await import('../../src/core/entries/testing.js');
    const stores = await import('../../src/core/entries/stores.js');
    expect(core.InMemoryCheckpointStore).toBe(testing.InMemoryCheckpointStore);
    expect(stores.InMemoryCheckpointStore).toBe(testing.InMemoryCheckpointStore);
    // The in-memory store redacts like the persistent one.
    const store = new core.InMemoryCheckpointStore({ secrets: ['sk-never-stored-123'], env: {} });
    await store.set('c1', JSON.stringify({ note: 'key sk-never-stored-123' }));
    expect(await store.get('c1')).not.toContain('sk-never-stored-123');
  });

  it('the runtime loads no CLI, REPL or store driver module', () => {
    const { exports, loaded } = probe('adk');
    expect(exports.adk).toEqual(expect.arrayContaining(['ChatModelAgent', 'Runner', 'deepAgent', 'summarizeMiddleware']));
    const heavy = loaded.filter((u) => /node_modules\/(ink|react|commander|chalk|marked|cli-highlight|@keyv\/(redis|postgres|sqlite)|sqlite3|@anthropic-ai|@modelcontextprotocol|@opentelemetry\/sdk)\//.test(u) || /\/dist\/(cli|ui)\//.test(u));
    expect(loaded.some((u) => u.endsWith('/dist/core/index.js'))).toBe(true); // the probe sees what loads
    expect(heavy).toEqual([]);
  });
});

describe('documentation', () => {
  it('every public export of every entry has a doc comment', () => {
    const out = execFileSync(process.execPath, [resolve('scripts/doc-coverage.mjs'), '--list'], { encoding: 'utf8' });
    expect(out.trim().split('\n').at(-1)).toMatch(/^(\d+) of \1 public exports documented$/);
  }, 60_000);
});
