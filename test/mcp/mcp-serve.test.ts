import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ElicitRequest, type ElicitResult, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverEnv, tempHome, textOf, toolMessagesOf, useServer, writeAgentsFile } from '../cli/helpers.js';
import { ADK_BIN, runCli } from '../support/cli.js';
import { formAnswer, interruptForm, type Waiting } from '../../src/serve/mcp-serve/interrupt-form.js';

// Issue 30 (adk as an MCP server): `adk mcp serve` driven by the MCP SDK's own client, as Claude
// Code or Cursor drive it: the built CLI, started as a client starts it.
const RUNNER = [ADK_BIN, 'mcp', 'serve'];
const server = useServer();

/** The API key the team uses: it must never reach the client, in any message, or stderr. */
const KEY = 'sk-mcp-serve-secret-7f3a9c2e1b';
/** The HTTP token (a credential too). */
const TOKEN = 'mcp-serve-token-5e8d2a7c4b19f0';

const AGENTS = `version: 1
default: coder
agents:
  coder:
    description: A test team that runs commands and asks questions.
    instruction: You are a careful test agent.
    tools: [shell, ask_user]
    approval: [shell]
  writer:
    description: A test team that only writes.
    instruction: You write.
`;

let dir: string;
let home: string;
let agentsFile: string;
/** Everything every client saw (raw protocol messages) and every server's stderr, for the secret check. */
let seen: string[] = [];
let closers: Array<() => Promise<unknown>> = [];

function env(extra: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const merged = { ...process.env, ...serverEnv(server(), KEY, home), ADK_SHELL_SANDBOX: 'off', ADK_SERVE_TOKEN: TOKEN, ...extra };
  for (const [k, v] of Object.entries(merged)) if (v !== undefined) out[k] = v;
  return out;
}

type ElicitHandler = (req: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

/** A client as an editor makes one: with elicitation (forms) when given a handler; every raw message recorded. */
async function connect(transport: Transport, elicit?: ElicitHandler): Promise<{ client: Client; elicited: ElicitRequest['params'][] }> {
  const client = new Client({ name: 'test-editor', version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  const elicited: ElicitRequest['params'][] = [];
  if (elicit) {
    client.setRequestHandler('elicitation/create', async (req) => {
      elicited.push(req.params);
      return elicit(req.params);
    });
  }
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  const inner = transport.onmessage;
  transport.onmessage = (m, extra) => {
    seen.push(JSON.stringify(m));
    inner?.(m, extra);
  };
  closers.push(async () => {
    await client.close();
    // stdout carried protocol messages only: a stray line would have been a parse error here.
    expect(errors.filter((e) => !/closed|abort/i.test(e.message))).toEqual([]);
  });
  return { client, elicited };
}

/** `adk mcp serve` on stdio, as a client starts it. */
async function stdio(elicit?: ElicitHandler, args: string[] = []) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...RUNNER, '--agents', agentsFile, ...args], env: env(), cwd: dir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    seen.push(d.toString());
  });
  const c = await connect(transport, elicit);
  return { ...c, stderr: () => stderr };
}

const structured = (r: CallToolResult) => r.structuredContent as { answer: string; sessionId: string; status: string; resume?: string };
const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('adk mcp serve', () => {
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-mcp-ws-')));
    home = tempHome();
    agentsFile = writeAgentsFile(dir, AGENTS);
    seen = [];
  });
  afterEach(async () => {
    await Promise.allSettled(closers.map((c) => c()));
    closers = [];
    // The key and the token were in the server's environment and in a model reply: nowhere in any output.
    const all = seen.join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(TOKEN);
  });

  it('offers each team as a tool and answers over stdio with text and structured content that match the outputSchema; a session continues', async () => {
    server().enqueue({ content: `The answer is 42 (key ${KEY}).` }, { content: 'Still 42.' });
    const { client } = await stdio();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['coder', 'writer']);
    const coder = tools.find((t) => t.name === 'coder')!;
    expect(coder.inputSchema).toMatchObject({ type: 'object', properties: { task: { type: 'string' }, session: { type: 'string' } }, required: ['task'] });
    expect(coder.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['answer', 'sessionId', 'status']) });
    expect(coder.description).toContain('runs commands');

    const progress: string[] = [];
    const first = (await client.callTool({ name: 'coder', arguments: { task: 'What is six times seven?' } }, { onprogress: (p) => progress.push(p.message ?? '') })) as CallToolResult;
    expect(first.isError).toBeFalsy();
    const out = structured(first);
    // Checked here too, not only by the client: the result is what the declared schema says.
    expect(new Ajv2020({ strict: false }).validate(coder.outputSchema!, out)).toBe(true);
    expect(out).toMatchObject({ status: 'completed', sessionId: expect.stringMatching(/\S/) });
    // The key the model echoed is redacted in the text and the structured content.
    expect(out.answer).toMatch(/^The answer is 42 \(key .*REDACTED.*\)\.$/);
    expect(text(first)).toBe(out.answer);
    expect(progress.some((p) => /^coder is writing \(\d+ characters\)$/.test(p))).toBe(true);
    expect(textOf(server().chatRequests[0]!)).toContain('What is six times seven?');

    const second = (await client.callTool({ name: 'coder', arguments: { task: 'And again?', session: out.sessionId } })) as CallToolResult;
    expect(structured(second)).toEqual({ answer: 'Still 42.', sessionId: out.sessionId, status: 'completed' });
    // The conversation went on: the model saw the first turn.
    expect(textOf(server().chatRequests[1]!)).toContain('What is six times seven?');
    const shown = JSON.parse((await runCli(['sessions', 'show', out.sessionId, '--json'], { env: { ADK_HOME: home } })).stdout);
    expect(shown).toMatchObject({ id: out.sessionId, status: 'completed', rootAgent: 'coder' });

    // Another team's tool does not take this conversation over.
    const other = (await client.callTool({ name: 'writer', arguments: { task: 'take over', session: out.sessionId } })) as CallToolResult;
    expect(other.isError).toBe(true);
    expect(structured(other)).toMatchObject({ status: 'error', answer: expect.stringContaining("team 'coder'") });
    expect(server().chatRequests).toHaveLength(2);
  });

  it('asks an approval as an elicitation form: approve runs the command, reject tells the model; ask_user is a text field', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'echo approved-ran > approved.txt' } }] },
      { content: 'Ran it.' },
      { toolCalls: [{ id: 'call_2', name: 'shell', arguments: { command: 'echo nope > rejected.txt' } }] },
      { content: 'Understood, not running it.' },
      { toolCalls: [{ id: 'call_3', name: 'ask_user', arguments: { question: 'Which colour?' } }] },
      { content: 'Blue it is.' },
    );
    const replies: ElicitResult[] = [
      { action: 'accept', content: { decision: 'approve' } },
      { action: 'accept', content: { decision: 'reject', reason: 'not on a Friday' } },
      { action: 'accept', content: { answer: 'blue' } },
    ];
    const { client, elicited } = await stdio(() => replies.shift()!);

    const ran = (await client.callTool({ name: 'coder', arguments: { task: 'run the approved command' } })) as CallToolResult;
    expect(structured(ran)).toMatchObject({ status: 'completed', answer: 'Ran it.' });
    expect(elicited[0]).toMatchObject({ mode: 'form', requestedSchema: { properties: { decision: { enum: ['approve', 'reject'] }, reason: { type: 'string' } } } });
    expect(elicited[0]!.message).toContain('echo approved-ran > approved.txt');
    expect(readFileSync(join(dir, 'approved.txt'), 'utf8')).toBe('approved-ran\n');

    const refused = (await client.callTool({ name: 'coder', arguments: { task: 'run the other one' } })) as CallToolResult;
    expect(structured(refused)).toMatchObject({ status: 'completed', answer: 'Understood, not running it.' });
    expect(existsSync(join(dir, 'rejected.txt'))).toBe(false);
    expect(toolMessagesOf(server().chatRequests[3]!).at(-1).content).toMatch(/reject[\s\S]*not on a Friday/i);

    const asked = (await client.callTool({ name: 'coder', arguments: { task: 'ask me' } })) as CallToolResult;
    expect(structured(asked)).toMatchObject({ status: 'completed', answer: 'Blue it is.' });
    expect(elicited[2]).toMatchObject({ message: 'Which colour?', requestedSchema: { properties: { answer: { type: 'string' } }, required: ['answer'] } });
    expect(toolMessagesOf(server().chatRequests[5]!).at(-1).content).toContain('blue');
    expect(elicited).toHaveLength(3);
  });

  it('without elicitation returns a clear "needs approval" result; adk resume --approve completes it and the session goes on', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'echo later > later.txt' } }] });
    const { client } = await stdio();
    const r = (await client.callTool({ name: 'coder', arguments: { task: 'write later.txt' } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const out = structured(r);
    expect(out).toMatchObject({ status: 'interrupted', resume: `adk resume ${out.sessionId} --approve` });
    expect(text(r)).toContain(`adk resume ${out.sessionId} --approve`);
    expect(text(r)).toContain('echo later > later.txt');
    expect(existsSync(join(dir, 'later.txt'))).toBe(false);

    // The person approves in a terminal, with the command the result gave.
    server().enqueue({ content: 'Wrote later.txt.' });
    const resumed = await runCli(out.resume!.split(' ').slice(1), { env: env({ ADK_HOME: home }), cwd: dir });
    seen.push(resumed.stdout, resumed.stderr);
    expect(resumed.code).toBe(0);
    expect(readFileSync(join(dir, 'later.txt'), 'utf8')).toBe('later\n');

    server().enqueue({ content: 'Yes, it is there.' });
    const next = (await client.callTool({ name: 'coder', arguments: { task: 'is it there?', session: out.sessionId } })) as CallToolResult;
    expect(structured(next)).toEqual({ answer: 'Yes, it is there.', sessionId: out.sessionId, status: 'completed' });
    expect(textOf(server().chatRequests.at(-1)!)).toContain('Wrote later.txt.');
  });

  it('--on-approval deny: a call nobody can approve is answered "no" and the model goes on; fail ends the call incomplete, naming it', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'echo no > no.txt' } }] }, { content: 'I could not run it.' });
    const denied = await stdio(undefined, ['--on-approval', 'deny']);
    const r = structured((await denied.client.callTool({ name: 'coder', arguments: { task: 'write no.txt' } })) as CallToolResult);
    expect(r).toMatchObject({ status: 'completed', answer: 'I could not run it.' });
    expect(toolMessagesOf(server().chatRequests.at(-1)!).at(-1).content).toContain('adk is running unattended');
    expect(existsSync(join(dir, 'no.txt'))).toBe(false);
    server().enqueue({ toolCalls: [{ id: 'call_2', name: 'shell', arguments: { command: 'echo no > no.txt' } }] });
    const failing = await stdio(undefined, ['--on-approval', 'fail']);
    const f = structured((await failing.client.callTool({ name: 'coder', arguments: { task: 'write no.txt' } })) as CallToolResult);
    expect(f.status).toBe('incomplete');
    expect(f.answer).toContain('shell {"command":"echo no > no.txt"}; nothing of it ran');
    expect(existsSync(join(dir, 'no.txt'))).toBe(false);
  });

  it('a session left waiting is asked again by a client with elicitation; the new task runs once the waiting turn is done', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'echo first > first.txt' } }] });
    const plain = await stdio();
    const waiting = structured((await plain.client.callTool({ name: 'coder', arguments: { task: 'write first.txt' } })) as CallToolResult);
    expect(waiting.status).toBe('interrupted');

    server().enqueue({ content: 'Wrote first.txt.' }, { content: 'Second task done.' });
    const able = await stdio(() => ({ action: 'accept', content: { decision: 'approve' } }));
    const r = (await able.client.callTool({ name: 'coder', arguments: { task: 'now the second task', session: waiting.sessionId } })) as CallToolResult;
    expect(able.elicited).toHaveLength(1);
    expect(able.elicited[0]!.message).toContain('echo first > first.txt');
    expect(readFileSync(join(dir, 'first.txt'), 'utf8')).toBe('first\n');
    expect(structured(r)).toEqual({ answer: 'Second task done.', sessionId: waiting.sessionId, status: 'completed' });
    expect(textOf(server().chatRequests.at(-1)!)).toContain('now the second task');
  });

  it('a cancel from the client stops the turn and saves it as cancelled', async () => {
    server().enqueue({ content: 'x'.repeat(4000), chunkSize: 2, chunkDelayMs: 5 });
    const { client } = await stdio(undefined, ['--agent', 'coder']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['coder']);
    const abort = new AbortController();
    let progressed = false;
    const call = client.callTool({ name: 'coder', arguments: { task: 'write a lot' } }, { signal: abort.signal, onprogress: () => (progressed = true) });
    const deadline = Date.now() + 10_000;
    while (!progressed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(progressed).toBe(true);
    abort.abort();
    await expect(call).rejects.toThrow();
    await server().waitForAborted(1, 5000);
    let session: { status?: string } | undefined;
    while (Date.now() < deadline) {
      const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { env: { ADK_HOME: home } })).stdout) as Array<{ status?: string }>;
      session = list[0];
      if (session?.status === 'cancelled') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(session).toMatchObject({ status: 'cancelled' });
  });

  it('serves streamable HTTP with the token: 401 without it, a call with elicitation with it', async () => {
    const child = spawn(process.execPath, [...RUNNER, '--agents', agentsFile, '--http', '0'], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    closers.push(async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    });
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => seen.push(d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no URL; stderr:\n${stderr}`)), 15_000);
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        seen.push(d.toString());
        const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
        if (m) {
          clearTimeout(t);
          resolve(m[1]!);
        }
      });
    });
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });
    const bare = await post({});
    seen.push(await bare.text());
    expect(bare.status).toBe(401);
    const wrong = await post({ authorization: 'Bearer not-the-token-at-all-0000' });
    seen.push(await wrong.text());
    expect(wrong.status).toBe(401);

    server().enqueue({ toolCalls: [{ id: 'call_h', name: 'shell', arguments: { command: 'echo over-http > http.txt' } }] }, { content: 'Done over HTTP.' });
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } });
    const { client, elicited } = await connect(transport, () => ({ action: 'accept', content: { decision: 'approve' } }));
    const r = (await client.callTool({ name: 'coder', arguments: { task: 'over http' } })) as CallToolResult;
    expect(structured(r)).toMatchObject({ status: 'completed', answer: 'Done over HTTP.' });
    expect(elicited).toHaveLength(1);
    expect(readFileSync(join(dir, 'http.txt'), 'utf8')).toBe('over-http\n');
  });

  it('refuses an untrusted agents.yaml before serving, and runs nothing', async () => {
    writeAgentsFile(dir, `${AGENTS}    middlewares: [{ module: ./mw.mjs }]\n`);
    writeFileSync(join(dir, 'mw.mjs'), "import { writeFileSync } from 'node:fs'; writeFileSync('pwned.txt', 'x'); export default {};\n");
    const child = spawn(process.execPath, [...RUNNER, '--agents', agentsFile], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    seen.push(stdout, stderr);
    expect(code).toBe(2);
    expect(stderr).toMatch(/is not trusted[\s\S]*adk trust/);
    expect(stdout).toBe('');
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false);
    expect(server().chatRequests).toHaveLength(0);
  });
});

describe('interrupts as elicitation forms', () => {
  const plan: Waiting = { id: 'p1', address: 'agent:planner', kind: 'plan_review', plan: ['read the code', 'fix the bug'], message: 'Is this plan right?' };
  const approval: Waiting = { id: 'a1', address: 'agent:coder;tool:shell:c1', kind: 'approval', tool: 'shell', arguments: '{"command":"rm -rf build"}', message: '' };

  it('a plan review is shown with its steps; approve accepts, reject and decline ask for another plan, cancel leaves it waiting', () => {
    const form = interruptForm(plan, 'coder')!;
    expect(form.message).toContain('1. read the code\n2. fix the bug');
    expect(form.requestedSchema.required).toEqual(['decision']);
    expect(formAnswer(plan, { action: 'accept', content: { decision: 'approve' } }, 'Cursor')).toEqual({ data: { accept: true } });
    expect(formAnswer(plan, { action: 'accept', content: { decision: 'reject', reason: 'test first' } }, 'Cursor')).toEqual({ data: { accept: false, feedback: 'test first' } });
    expect(formAnswer(plan, { action: 'decline' }, 'Cursor')).toEqual({ data: { accept: false, feedback: 'The user declined in Cursor.' } });
    expect(formAnswer(plan, { action: 'cancel' }, 'Cursor')).toEqual({ later: true });
  });

  it('an approval shows the command; a custom interrupt has no form', () => {
    expect(interruptForm(approval, 'coder')!.message).toContain('rm -rf build');
    expect(formAnswer(approval, { action: 'accept', content: { decision: 'reject' } }, 'Cursor')).toEqual({ data: { approved: false, reason: undefined } });
    expect(interruptForm({ ...approval, kind: 'custom' }, 'coder')).toBeUndefined();
  });
});
