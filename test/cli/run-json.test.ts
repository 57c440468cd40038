import { describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { runCli } from '../support/cli.js';

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const env = () => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test' });
const ofType = (lines: any[], type: string) => lines.filter((l) => l.type === type);

describe('adk run --json against an OpenAI-compatible server', () => {
  it('streams deltas, then the whole message, then done', async () => {
    server.enqueue({ content: 'Hello there, how can I help you today?', chunkSize: 3 });
    const r = await runCli(['run', '--json', 'hi'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatchObject({ type: 'session', agent: 'assistant' });
    expect(typeof r.lines[0].sessionId).toBe('string');
    const deltas = ofType(r.lines, 'delta');
    expect(deltas.length).toBeGreaterThan(3);
    const [message] = ofType(r.lines, 'message');
    expect(message).toMatchObject({ agent: 'assistant', runPath: ['assistant'], role: 'assistant' });
    expect(message.content).toBe(deltas.map((d) => d.content).join(''));
    expect(message.content).toBe('Hello there, how can I help you today?');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: message.content });
    expect(server.chatRequests[0].body.model).toBe('gpt-test');
    expect(server.chatRequests[0].headers.authorization).toBe('Bearer test-key-123456');
  });

  it('executes two parallel tool calls with fragmented arguments and prints the answer', async () => {
    server.enqueue(
      {
        toolCalls: [
          { id: 'call_a', name: 'current_time', arguments: {} },
          { id: 'call_b', name: 'list_dir', arguments: { path: '.' } },
        ],
      },
      { content: 'It is now and the folder has files.' },
    );
    const r = await runCli(['run', '--json', 'what time is it and what is here?'], { env: env() });
    expect(r.code).toBe(0);
    const calls = ofType(r.lines, 'tool_call');
    const results = ofType(r.lines, 'tool_result');
    expect(calls.map((c) => c.id).sort()).toEqual(['call_a', 'call_b']);
    expect(results.map((c) => c.id).sort()).toEqual(['call_a', 'call_b']);
    expect(calls.find((c) => c.id === 'call_b').arguments).toEqual({ path: '.' });
    for (const res of results) expect(res.isError).toBe(false);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'It is now and the folder has files.' });
    // The second request carries both tool results, answering the calls by id.
    const toolMsgs = server.chatRequests[1].body.messages.filter((m: any) => m.role === 'tool');
    expect(toolMsgs.map((m: any) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
  });

  it('turns malformed tool-call arguments into an error result and still completes', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_x', name: 'list_dir', arguments: '{"path": ".' }] }, { content: 'Sorry, let me answer directly.' });
    const r = await runCli(['run', '--json', 'list'], { env: env() });
    expect(r.code).toBe(0);
    const [result] = ofType(r.lines, 'tool_result');
    expect(result).toMatchObject({ id: 'call_x', isError: true });
    expect(result.content).toMatch(/not valid JSON/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('retries 500, 500 and then succeeds', async () => {
    server.enqueue({ status: 500 }, { status: 500 }, { content: 'finally' });
    const r = await runCli(['run', '--json', 'hi'], { env: env() });
    expect(r.code).toBe(0);
    const retries = ofType(r.lines, 'retry');
    expect(retries).toHaveLength(2);
    expect(retries.map((x) => x.attempt)).toEqual([1, 2]);
    expect(retries[0].error).toMatch(/500/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'finally' });
  });

  it('a 400 gives one error line, exit 1 and a one-line stderr message without a stack', async () => {
    server.enqueue({ status: 400 });
    const r = await runCli(['run', '--json', 'hi'], { env: env() });
    expect(r.code).toBe(1);
    expect(ofType(r.lines, 'error')).toHaveLength(1);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'error' });
    const stderr = r.stderr.trim().split('\n');
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^adk: .*400/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout + r.stderr).not.toContain('test-key-123456');
  });

  it('SIGINT during a slow stream exits 130 with done:cancelled and aborts the HTTP request', async () => {
    server.enqueue({ content: 'one two three four five six seven eight nine ten eleven twelve', chunkSize: 4, chunkDelayMs: 150 });
    let sent = false;
    const r = await runCli(['run', '--json', 'count slowly'], {
      env: env(),
      onLine: (line, child) => {
        if (!sent && line.includes('"delta"')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    await server.waitForAborted(1, 5000);
    expect(server.abortedRequests).toBe(1);
  });
});

describe('adk basics', () => {
  it('prints its version and help', async () => {
    const v = await runCli(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await runCli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('run');
  });

  it('reads the prompt from stdin with -', async () => {
    server.enqueue({ content: 'got it' });
    const r = await runCli(['run', '--json', '-'], { env: env(), input: 'prompt from stdin' });
    expect(r.code).toBe(0);
    expect(server.chatRequests[0].body.messages.at(-1)).toMatchObject({ role: 'user', content: 'prompt from stdin' });
  });

  it('plain text mode streams the answer to stdout', async () => {
    server.enqueue({ content: 'plain answer' });
    const r = await runCli(['run', 'hi'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('plain answer\n');
  });

  it('an unknown option is a usage error (exit 2)', async () => {
    const r = await runCli(['run', '--bogus', 'x']);
    expect(r.code).toBe(2);
  });
});
