import { mkdtempSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, tempHome, toolMessagesOf, useServer, writeAgentsFile } from '../cli/helpers.js';
import { TestEditor } from '../support/acp-editor.js';
import { trustAgentsFile } from '../support/trust.js';
import type { ChildProcess } from 'node:child_process';
import { serveEnv, startServeProcess } from '../serve/serve-process.js';
import { readSse } from '../serve/sse.js';

// Issue 30: a server's question (elicitation) becomes an adk interrupt: answered with `adk resume` (the call is
// made again and its question answered) or, in a live process, by the editor's own form (the call goes on).
const server = useServer();
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

let dir: string;
let home: string;
let editors: TestEditor[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-mcp-elicit-')));
  home = tempHome();
  const file = writeAgentsFile(
    dir,
    `version: 1
default: helper
mcp_servers:
  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }
agents:
  helper:
    description: A test agent.
    instruction: Use your tools.
    tools: [{ mcp: everything }]
`,
  );
  trustAgentsFile(home, file);
});
afterEach(async () => {
  await Promise.all(editors.map((e) => e.close()));
  editors = [];
});
const env = () => serverEnv(server(), 'test-key-123456', home);

describe('MCP elicitation', () => {
  it('stops the run with the server’s form; a wrong answer asks again; a good one (adk resume) answers the question', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_form', name: 'mcp__everything__trigger-elicitation-request', arguments: {} }] }, { content: 'Thanks, Ada.' });
    const first = await expectExit(['run', '--json', 'fill in the form'], 3, { env: env(), cwd: dir });
    const [interrupt] = ofType(first.lines, 'interrupt');
    const [point] = interrupt.interrupts;
    expect(point).toMatchObject({ kind: 'input', message: expect.stringContaining('MCP server \'everything\' asks: Please provide inputs'), data: { elicitation: { server: 'everything', schema: { required: ['name'] } } } });
    const id = first.lines.at(-1).sessionId;

    const wrong = await expectExit(['resume', id, '--input', 'not json', '--json'], 3, { env: env(), cwd: dir });
    expect(ofType(wrong.lines, 'interrupt')[0].interrupts[0].message).toMatch(/not the JSON object the form asks for/);

    const answered = await expectExit(['resume', id, '--input', '{"name":"Ada","check":true,"integer":7}', '--json'], 0, { env: env(), cwd: dir });
    const [result] = ofType(answered.lines, 'tool_result');
    expect(result.content).toContain('User provided the requested information');
    expect(result.content).toContain('- Name: Ada');
    expect(result.content).toContain('- Favorite Integer: 7');
    expect(answered.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Thanks, Ada.' });
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toContain('- Name: Ada');
  });

  it('inside an editor the server’s form is the editor’s form, and the waiting call goes on with the answer', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_form', name: 'mcp__everything__trigger-elicitation-request', arguments: {} }] }, { content: 'Thanks, Grace.' });
    const e = new TestEditor({ cwd: dir, env: env(), capabilities: { elicitation: { form: {} } } });
    editors.push(e);
    const forms: any[] = [];
    e.onElicitation = (req) => {
      forms.push(req);
      return { action: 'accept', content: { name: 'Grace', check: true } };
    };
    await e.initialize();
    const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'fill it in' }] })).toEqual({ stopReason: 'end_turn' });
    expect(forms).toHaveLength(1);
    expect(forms[0]).toMatchObject({ mode: 'form', message: 'Please provide inputs for the following fields:', requestedSchema: { required: ['name'], properties: { name: { type: 'string' }, integer: { type: 'integer' } } } });
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toContain('- Name: Grace');
  });

  it('a tool’s structured result reaches adk run --json as tool_result.structured, and the model as text', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_s', name: 'mcp__everything__get-structured-content', arguments: { location: 'Chicago' } }] }, { content: 'Mild.' });
    const run = await expectExit(['run', '--json', 'weather in Chicago?'], 0, { env: env(), cwd: dir });
    const [result] = ofType(run.lines, 'tool_result');
    expect(result.structured).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toContain('"temperature"');
  });

  it('over adk serve the question is an interrupt on the session; an /interrupts answer goes to the waiting call', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_form', name: 'mcp__everything__trigger-elicitation-request', arguments: {} }] }, { content: 'Thanks, Sam.' });
    const children: ChildProcess[] = [];
    try {
      // `adk serve` runs in the folder whose (trusted) agents.yaml names server-everything.
      const env = serveEnv(dir, server().url, { ADK_HOME: home });
      const { url } = await startServeProcess(dir, env, children);
      const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
      const first = await readSse(await post(`/v1/sessions/${id}/messages`, { content: 'fill in the form' }));
      const interrupt = first.find((e) => e.event === 'interrupt')!.data;
      expect(interrupt.interrupts[0]).toMatchObject({ kind: 'input', data: { elicitation: { server: 'everything' } } });
      const second = await readSse(await post(`/v1/sessions/${id}/interrupts`, { input: '{"name":"Sam"}' }));
      const result = second.find((e) => e.event === 'tool_result')!.data;
      expect(result.content).toContain('- Name: Sam');
      expect(second.find((e) => e.event === 'done')!.data).toMatchObject({ status: 'completed', output: 'Thanks, Sam.' });
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }
  });
});
