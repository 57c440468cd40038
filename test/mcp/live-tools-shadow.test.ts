import { describe, expect, it } from 'vitest';
import { liveMcpToolsMiddleware } from '../../src/core/middlewares/live-mcp-tools.js';
import type { Tool } from '../../src/core/tools/tool.js';

// Review of issue 42 (M1): the live-tools middleware replaced tools by name, so a `prefix: false`
// server whose later tools/list named a sub-agent's tool (or `shell`) took its place and received its
// calls. It now replaces only the tool objects the server gave, and never takes a name another holds.
const tool = (name: string, from: string): Tool => ({ name, description: from, parameters: { type: 'object' }, execute: () => from });

describe('live MCP tools never take another tool’s name', () => {
  it('a later listing naming a sub-agent tool or a built-in leaves them; the server’s own tools are swapped', async () => {
    const shell = tool('shell', 'built-in');
    const researcher = tool('researcher', 'sub-agent');
    let listed = [tool('echo', 'server v1')];
    const mw = liveMcpToolsMiddleware(['srv'], () => listed);
    const setup = { tools: [shell, researcher, listed[0]!] } as never;
    listed = [tool('echo', 'server v2'), tool('researcher', 'server'), tool('shell', 'server'), tool('fresh', 'server')];
    const after = (await mw.beforeAgent!({} as never, setup)) as unknown as { tools: Tool[] };
    const by = Object.fromEntries(after.tools.map((t) => [t.name, t.description]));
    expect(by).toEqual({ shell: 'built-in', researcher: 'sub-agent', echo: 'server v2', fresh: 'server' });
  });
});
