import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { BUILTIN_TOOL_NAMES } from '../../src/core/tools/builtin/index.js';
import { ToolRegistry } from '../../src/core/tools/registry.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { FIXTURES, run } from './helpers.js';

const SERVER = { command: process.execPath, args: [path.join(FIXTURES, 'mcp-server.mjs')] };
const registries: ToolRegistry[] = [];
function registry(extra: Partial<ConstructorParameters<typeof ToolRegistry>[0]> = {}) {
  const r = new ToolRegistry({ workspaceRoot: FIXTURES, baseDir: FIXTURES, mcpServers: { calc: SERVER }, ...extra });
  registries.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

describe('ToolRegistry', () => {
  it('resolves built-ins without starting any MCP server', async () => {
    const reg = registry();
    const tools = await reg.resolve(['read_file', 'shell', 'ask_user']);
    expect(tools.map((t) => t.name)).toEqual(['read_file', 'shell', 'ask_user', 'shell_output']); // shell_output comes with shell (background jobs)
    expect(reg.pool.isStarted('calc')).toBe(false);
    expect(reg.knownNames()).toEqual([...BUILTIN_TOOL_NAMES]);
    expect(await reg.resolve(['read_file'])).toEqual([tools[0]]);
  });

  it('stops its own background jobs at close, never ones it was given (the REPL keeps them across teams)', async () => {
    const { ShellJobs } = await import('../../src/core/tools/builtin/shell-jobs.js');
    const given = new ShellJobs();
    let closed = 0;
    given.close = () => void closed++;
    await registry({ shellJobs: given }).close();
    expect(closed).toBe(0);
    const own = registry();
    let ownClosed = 0;
    own.jobs.close = () => void ownClosed++;
    await own.close();
    expect(ownClosed).toBe(1);
  });

  it('resolves { mcp }, MCP tool names and modules; servers start once and are shared', async () => {
    const reg = registry();
    const all = await reg.resolve([{ mcp: 'calc' }]);
    expect(all.map((t) => t.name)).toContain('mcp__calc__add');
    // By the server's own name or the name it is offered as (Claude Code's mcp__<server>__<tool>).
    const [add] = await reg.resolve(['add']);
    expect(add).toBe(all.find((t) => t.name === 'mcp__calc__add'));
    expect(await reg.resolve(['mcp__calc__add'])).toEqual([add]);
    expect(reg.knownNames()).toContain('mcp__calc__pid');
    const [weather] = await reg.resolve([{ module: './tools/weather.mjs', export: 'weather' }]);
    expect(weather.name).toBe('weather');
    expect((await run(add, { a: 20, b: 22 })).content).toBe('42');
    const [again] = await reg.resolve([{ module: './tools/weather.mjs', export: 'weather' }]);
    expect(again).toBe(weather);
  });

  it('starts MCP servers only for names that are not built in', async () => {
    const reg = registry();
    expect(reg.pool.isStarted('calc')).toBe(false);
    await reg.resolve(['current_time', 'echo']);
    expect(reg.pool.isStarted('calc')).toBe(true);
  });

  it('rejects unknown names, unknown servers, escaping modules and duplicate names', async () => {
    const reg = registry();
    await expect(reg.resolve(['nope'])).rejects.toThrow(/unknown tool 'nope': it is not a built-in tool \(read_file, .*\), and no MCP server \(calc\) has it/);
    await expect(reg.resolve([{ mcp: 'other' }])).rejects.toThrow(/unknown MCP server 'other' \(configured: calc\)/);
    await expect(reg.resolve([{ module: '../x.mjs' }])).rejects.toThrow(ConfigError);
    await expect(reg.resolve([{ module: '/abs/x.mjs' }])).rejects.toThrow(/is absolute/);
    // A tool from code and an MCP tool of the same name never clash: the MCP one is prefixed (issue 43).
    const same: Tool = { name: 'add', description: 'x', parameters: { type: 'object' }, execute: () => '' };
    const withExtra = registry({ tools: [same] });
    expect((await withExtra.resolve(['add', { mcp: 'calc' }])).map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'mcp__calc__add']));
    await expect(withExtra.resolve(['add', 'add'])).resolves.toHaveLength(1);
    await expect(reg.resolve([{ bogus: 1 } as never])).rejects.toThrow(/invalid tool reference/);
  });

  it('resolves MCP cwd against baseDir and defaults to the workspace root', async () => {
    const reg = new ToolRegistry({
      workspaceRoot: path.dirname(FIXTURES),
      baseDir: FIXTURES,
      mcpServers: { a: SERVER, b: { ...SERVER, cwd: './tools' } },
    });
    registries.push(reg);
    const [echoA] = (await reg.resolve([{ mcp: 'a' }])).filter((t) => t.name === 'mcp__a__echo');
    const [echoB] = (await reg.resolve([{ mcp: 'b' }])).filter((t) => t.name === 'mcp__b__echo');
    expect((await run(echoA, { text: 'x' })).content).toContain(`cwd: ${path.dirname(FIXTURES)}`);
    expect((await run(echoB, { text: 'x' })).content).toContain(`cwd: ${path.join(FIXTURES, 'tools')}`);
  });
});
