import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerPool, type McpPoolOptions, type McpServerConfig } from '../../src/core/tools/mcp.js';
import { FIXTURES, fakeCtx, isAlive, run, waitFor } from './helpers.js';

const SERVER = { command: process.execPath, args: [path.join(FIXTURES, 'mcp-server.mjs')] };
const pools: McpServerPool[] = [];

function makePool(options: McpPoolOptions = {}, servers: Record<string, McpServerConfig> = { calc: SERVER }) {
  const pool = new McpServerPool(servers, { cwd: FIXTURES, ...options });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('McpServerPool', () => {
  it('starts a server lazily, lists its tools and calls them', async () => {
    const pool = makePool();
    expect(pool.status('calc').state).toBe('idle');
    expect(pool.isStarted('calc')).toBe(false);
    const tools = await pool.toolsFor('calc');
    expect(tools.map((t) => t.name).sort()).toEqual(['add', 'big', 'crash', 'echo', 'fail', 'pid', 'slow'].map((n) => `mcp__calc__${n}`));
    const add = tools.find((t) => t.name === 'mcp__calc__add')!;
    expect(add.description).toBe('Add two numbers.');
    expect(add.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(add.parameters).not.toHaveProperty('$schema');
    expect(await run(add, { a: 2, b: 3 })).toEqual({ content: '5', isError: false });
    expect(await pool.tool('calc', 'add')).toBe(add);
    expect(await pool.toolsFor('calc')).toBe(tools);
    expect(pool.status('calc').state).toBe('ready');
  });

  it('joins text parts, runs in the configured cwd and respects isError', async () => {
    const pool = makePool();
    const echo = await pool.tool('calc', 'echo');
    expect((await run(echo, { text: 'hi' })).content).toBe(`echo: hi\ncwd: ${FIXTURES}`);
    expect(await run(await pool.tool('calc', 'fail'), {})).toEqual({ content: 'it failed on purpose', isError: true });
    await expect(pool.tool('calc', 'nope')).rejects.toThrow(/MCP server 'calc' has no tool 'nope' \(it has: mcp__calc__add, /);
  });

  it('gives a clear error result after the server crashes, and later calls keep failing cleanly', async () => {
    const pool = makePool();
    const crash = await run(await pool.tool('calc', 'crash'), {});
    expect(crash.isError).toBe(true);
    expect(crash.content).toMatch(/^Error: MCP server 'calc' is not running: it exited/);
    const after = await run(await pool.tool('calc', 'add'), { a: 1, b: 1 });
    expect(after.isError).toBe(true);
    expect(after.content).toMatch(/^Error: MCP server 'calc' is not running: it exited \(stderr: crashing on purpose\)/);
    expect(pool.status('calc').state).toBe('stopped');
  });

  it('reports a killed server', async () => {
    const pool = makePool();
    const pid = Number((await run(await pool.tool('calc', 'pid'), {})).content);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => pool.status('calc').state === 'stopped');
    const r = await run(await pool.tool('calc', 'add'), { a: 1, b: 2 });
    expect(r).toEqual({ content: "Error: MCP server 'calc' is not running: it exited", isError: true });
  });

  it('restarts a stopped server on use when asked to', async () => {
    const pool = makePool({ restartOnUse: true });
    const pidTool = await pool.tool('calc', 'pid');
    const first = Number((await run(pidTool, {})).content);
    await run(await pool.tool('calc', 'crash'), {});
    const [a, b] = await Promise.all([run(pidTool, {}), run(pidTool, {})]);
    expect(a.isError).toBe(false);
    expect(b.content).toBe(a.content);
    expect(Number(a.content)).not.toBe(first);
  });

  it('times out slow calls with an error result', async () => {
    const pool = makePool({ callTimeoutMs: 200 });
    const r = await run(await pool.tool('calc', 'slow'), { ms: 5_000 });
    expect(r).toEqual({ content: "Error: MCP tool 'slow' on server 'calc' timed out after 200 ms", isError: true });
    expect((await run(await pool.tool('calc', 'add'), { a: 1, b: 2 })).content).toBe('3');
  });

  it('cancels a call when the signal aborts', async () => {
    const pool = makePool();
    const slow = await pool.tool('calc', 'slow');
    const ctrl = new AbortController();
    const p = Promise.resolve(slow.execute({ ms: 5_000 }, fakeCtx({ signal: ctrl.signal })));
    setTimeout(() => ctrl.abort(), 50);
    await expect(p).rejects.toThrow(/cancelled/);
  });

  it('fails to start with a clear message, and rejects unknown servers', async () => {
    const pool = makePool({}, { broken: { command: process.execPath, args: ['-e', 'console.error("no config found"); process.exit(2)'] } });
    await expect(pool.toolsFor('broken')).rejects.toThrow(/^MCP server 'broken' failed to start: .*no config found/s);
    await expect(pool.toolsFor('other')).rejects.toThrow(/unknown MCP server 'other' \(configured: broken\)/);
    const missing = makePool({}, { gone: { command: '/nonexistent/binary' } });
    await expect(missing.toolsFor('gone')).rejects.toThrow(/MCP server 'gone' failed to start: .*ENOENT/);
  });

  it('close() stops every server process', async () => {
    const pool = makePool();
    const pid = Number((await run(await pool.tool('calc', 'pid'), {})).content);
    expect(isAlive(pid)).toBe(true);
    await pool.close();
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    expect((await run(await pool.tool('calc', 'add'), { a: 1, b: 2 })).content).toMatch(/not running: it was closed/);
  });
});
