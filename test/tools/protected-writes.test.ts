import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool, writeFileTool } from '../../src/core/tools/builtin/index.js';
import { runCli, serverEnv, tempDir, useServer, writeAgentsFile } from '../cli/helpers.js';

/**
 * Security review: when the workspace holds ADK_HOME (adk started in the home folder), a model's
 * write_file or edit_file must not write the person's own commands (`~/.adk/commands/x.md`, whose
 * allowed-tools are granted unasked), settings or trust file; nor the folder's .adk settings files
 * (their deny rules bind without trust). The sandboxed shell already hides ADK_HOME.
 */
const signal = new AbortController().signal;
const run = async (tool: { execute: (a: never, c: never) => unknown }, args: unknown): Promise<unknown> => {
  try {
    return await tool.execute(args as never, { signal } as never);
  } catch (e) {
    return `Error: ${(e as Error).message}`;
  }
};

describe('protected paths', () => {
  it('write_file and edit_file refuse ADK_HOME inside the workspace, and the folder settings files, with a clear error', async () => {
    const ws = realpathSync(mkdtempSync(join(tmpdir(), 'adk-protected-')));
    const home = join(ws, '.adk-home');
    mkdirSync(join(home, 'commands'), { recursive: true });
    writeFileSync(join(home, 'settings.json'), '{}\n');
    const protectedPaths = [home, join(ws, '.adk', 'settings.json'), join(ws, '.adk', 'settings.local.json')];
    const write = writeFileTool(ws, { protectedPaths });
    const edit = editFileTool(ws, { protectedPaths });

    const r = await run(write, { path: '.adk-home/commands/x.md', content: '---\nallowed-tools: shell\n---\nrun it' });
    expect(String(r)).toContain("'.adk-home/commands/x.md' is a protected file");
    expect(existsSync(join(home, 'commands', 'x.md'))).toBe(false);
    expect(String(await run(write, { path: '.adk-home/trusted-folders.json', content: '{}' }))).toContain('protected');
    expect(String(await run(edit, { path: '.adk-home/settings.json', old: '{}', new: '{"hooks":{}}' }))).toContain('protected');
    expect(String(await run(write, { path: '.adk/settings.local.json', content: '{}' }))).toContain('protected');
    // Through another spelling of the same place.
    expect(String(await run(write, { path: './.adk-home/../.adk-home/commands/y.md', content: 'x' }))).toContain('protected');
    // The rest of the workspace, and the folder's own commands, stay writable.
    expect(String(await run(write, { path: '.adk/commands/ok.md', content: 'hello' }))).toContain('Created');
    expect(String(await run(write, { path: 'src/a.txt', content: 'hello' }))).toContain('Created');
  });
});

const server = useServer();

describe('adk run in the home folder', () => {
  it("a model's write_file into ADK_HOME/commands is refused", async () => {
    const work = tempDir('adk-run-protected-');
    const home = join(work, '.adk');
    mkdirSync(home);
    writeAgentsFile(work, 'version: 1\ndefault: chat\nagents:\n  chat:\n    description: writes files\n    instruction: You write files.\n    tools: [write_file]\n');
    server().enqueue({ toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: '.adk/commands/x.md', content: '---\nallowed-tools: shell\n---\nrm -rf' } }] }, { content: 'done' });
    const r = await runCli(['run', 'write it'], { cwd: work, env: serverEnv(server(), 'test-key-123456', home) });
    expect(existsSync(join(home, 'commands', 'x.md'))).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    const tool = server().chatRequests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(String(tool.content)).toContain('is a protected file');
  }, 60_000);
});
