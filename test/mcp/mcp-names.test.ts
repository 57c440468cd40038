import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { configPowers, validateConfig } from '../../src/core/config/index.js';
import { ToolRegistry } from '../../src/core/tools/registry.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer } from '../cli/helpers.js';
import { TestEditor } from '../support/acp-editor.js';

// Issue 43, item 2: two tools with one name failed every run (`tool name 'read_file' is provided
// twice`), the README's own `adk mcp add files -- npx … server-filesystem .` included. Issue 42, item
// 7: a server's `readOnlyHint` let its tool run in plan mode on the server's word, and a later
// tools/list could name a tool like a built-in. MCP tools are now `mcp__<server>__<tool>` (Claude
// Code's names): nothing shares a name; `prefix: false` keeps a server's own names only where free;
// `tools: {include, exclude}` filters; a tool runs in plan mode only when the person marked its
// server read-only.
const server = useServer();
const SHADOW = fileURLToPath(new URL('../tools/fixtures/mcp-shadow-server.mjs', import.meta.url));
const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

const toolNames = (i: number) => server().chatRequests[i]!.body.tools.map((t: { function: { name: string } }) => t.function.name) as string[];

describe('MCP tool names', () => {
  it("the README's example: your own server with a read_file tool joins every team beside the built-in read_file, and two servers' echo tools both stay", async () => {
    const home = tempHome();
    const dir = tempDir('adk-mcp-names-');
    const env = serverEnv(server(), 'test-key-123456', home);
    await expectExit(['mcp', 'add', '--scope', 'user', 'files', '--', process.execPath, SHADOW], 0, { env, cwd: dir });
    await expectExit(['mcp', 'add', '--scope', 'user', 'more', '--', process.execPath, SHADOW], 0, { env, cwd: dir });
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'mcp__files__read_file', arguments: { path: 'x' } }, { id: 'c2', name: 'mcp__more__echo', arguments: { text: 'hi' } }] }, { content: 'ok' });
    const r = await expectExit(['run', '--json', '--agent', 'assistant', 'use them'], 0, { env, cwd: dir });
    expect(toolNames(0)).toEqual(expect.arrayContaining(['read_file', 'shell', 'mcp__files__read_file', 'mcp__files__shell', 'mcp__files__echo', 'mcp__more__echo']));
    expect(ofType(r.lines, 'tool_result').map((t) => [t.name, t.content]).sort()).toEqual([
      ['mcp__files__read_file', 'server read x'],
      ['mcp__more__echo', 'echo: hi'],
    ]);
  }, 60_000);

  it('prefix: false keeps the server’s own names where free; a name a built-in has keeps its prefix and says so; tools include/exclude filter', async () => {
    const reg = new ToolRegistry({ workspaceRoot: tempDir('adk-mcp-names-ws-'), mcpServers: { own: { command: process.execPath, args: [SHADOW], prefix: false }, some: { command: process.execPath, args: [SHADOW], tools: { exclude: ['shell'] } }, one: { command: process.execPath, args: [SHADOW], tools: { include: ['echo'] } } } });
    registries.push(reg);
    expect((await reg.resolve([{ mcp: 'own' }])).map((t) => t.name).sort()).toEqual(['echo', 'mcp__own__read_file', 'mcp__own__shell']);
    expect(reg.pool.renamed('own')).toEqual(['read_file is offered as mcp__own__read_file: read_file is taken', 'shell is offered as mcp__own__shell: shell is taken']);
    expect((await reg.resolve([{ mcp: 'some' }])).map((t) => t.name).sort()).toEqual(['mcp__some__echo', 'mcp__some__read_file']);
    expect((await reg.resolve([{ mcp: 'one' }])).map((t) => t.name)).toEqual(['mcp__one__echo']);
    // The built-ins are never shadowed: `read_file` is still adk's.
    const [builtin] = await reg.resolve(['read_file']);
    expect(builtin!.description).not.toContain('says it only reads');
  }, 60_000);

  it("a server's readOnlyHint is not the person's word: its tool counts as read-only only on a server marked read_only (a trust power)", async () => {
    const reg = new ToolRegistry({ workspaceRoot: tempDir('adk-mcp-names-ws-'), mcpServers: { hinted: { command: process.execPath, args: [SHADOW] }, marked: { command: process.execPath, args: [SHADOW], readOnly: true } } });
    registries.push(reg);
    expect((await reg.resolve([{ mcp: 'hinted' }])).find((t) => t.name === 'mcp__hinted__read_file')!.readOnly).toBe(false);
    expect((await reg.resolve([{ mcp: 'marked' }])).every((t) => t.readOnly)).toBe(true);
    const yaml = `version: 1\ndefault: a\nmcp_servers:\n  docs: { command: node, args: [x.js], read_only: true, prefix: false, tools: { exclude: [write] } }\nagents:\n  a:\n    description: d\n    instruction: i\n    tools: [{ mcp: docs }]\n`;
    const v = validateConfig({ text: yaml, file: 'agents.yaml' });
    expect(v.problems).toEqual([]);
    expect(configPowers(v.config!, {}).map((p) => p.text)).toContain("lets MCP server docs's tools run in plan mode (read_only: true)");
  }, 60_000);

  it('in plan mode (adk acp), the tool that says readOnlyHint is refused, never run', async () => {
    const ws = realpathSync(tempDir('adk-mcp-plan-'));
    const mark = join(ws, 'wrote.txt');
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'mcp__shadow__read_file', arguments: { path: 'x' } }] }, { content: 'planned' });
    const e = new TestEditor({ cwd: ws, env: { ...serverEnv(server(), 'test-key-123456', tempHome()), ADK_SHELL_SANDBOX: 'off' } });
    try {
      await e.initialize();
      const { sessionId } = await e.agent.request('session/new', { cwd: ws, mcpServers: [{ name: 'shadow', command: process.execPath, args: [SHADOW], env: [{ name: 'WROTE_MARK', value: mark }] }] });
      await e.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
      await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read it' }] });
      expect(existsSync(mark)).toBe(false);
      const result = server().chatRequests[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool').at(-1);
      expect(result.content).toMatch(/Plan mode/);
    } finally {
      await e.close();
    }
  }, 60_000);
});

