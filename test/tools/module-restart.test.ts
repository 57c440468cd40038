import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/core/tools/registry.js';
import { fakeCtx, run } from './helpers.js';

// Issue 42 review: a module tool's process is started again after a cancel; if its top level then
// waited for ever, the call that restarted it could not be cancelled (nor could adk go on).
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const MODULE = `import { existsSync, writeFileSync } from 'node:fs';
// Loaded again after the first call: then its top level never finishes.
if (existsSync('loaded-once')) await new Promise(() => {});
writeFileSync('loaded-once', '');
export default { name: 'spin', description: 'x', parameters: { type: 'object', properties: {} },
  execute: async () => { const end = Date.now() + 60_000; while (Date.now() < end); return 'done'; } };
`;

describe('a module tool restarted after a cancel', () => {
  it('a restart whose module never finishes loading is given up when the call is cancelled', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-module-restart-')));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'spin.mjs'), MODULE);
    const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir });
    cleanup.push(() => r.close());
    const [tool] = await r.resolveOne({ module: './spin.mjs' });
    // A CPU-bound call, cancelled: its process is ended.
    const first = new AbortController();
    setTimeout(() => first.abort(), 300);
    expect((await run(tool!, {}, fakeCtx({ signal: first.signal }))).isError).toBe(true);
    // The next call restarts the process, whose top level now hangs: cancelling the call ends the wait.
    const second = new AbortController();
    setTimeout(() => second.abort(), 500);
    const started = Date.now();
    const second_ = await run(tool!, {}, fakeCtx({ signal: second.signal }));
    expect(second_.isError).toBe(true);
    expect(second_.content).toMatch(/cancel/i);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 30_000);
});
