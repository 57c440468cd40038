import { describe, expect, it } from 'vitest';
import { useOpenAIServer, type OpenAITestServer, type ServerReply } from '../support/openai-server.js';
import { cli, expectCleanStderr, FAULT_KEY, modelEnv, ofType, showSession, workspace } from './helpers.js';

/*
 * Faults of the model server, injected by the local OpenAI-compatible test server and observed
 * through the real CLI (`adk run --json`): what the user sees, the exit code and the saved session.
 */

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

/** Serves `replies` in order and records when each request arrived (server clock). */
function script(replies: ServerReply[]): number[] {
  const arrivals: number[] = [];
  server.onRequest((_req, i) => {
    arrivals.push(Date.now());
    return replies[i];
  });
  return arrivals;
}

const run = (prompt: string, extra: Record<string, string | undefined> = {}) => {
  const { cwd, home } = workspace();
  const env = modelEnv(server, home, extra);
  return cli(['run', '--json', prompt], { env, cwd }).then((r) => ({ ...r, env, cwd }));
};

describe('model server faults', () => {
  it('429 with Retry-After: the next request waits the given time', async () => {
    const arrivals = script([{ status: 429, errorMessage: 'Rate limit reached', headers: { 'retry-after': '1' } }, { content: 'after the wait' }]);
    // With a 1 ms backoff, only Retry-After can explain a 1 s gap.
    const r = await run('hi', { ADK_RETRY_BASE_MS: '1' });
    expect(r.code, r.stderr).toBe(0);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(980);
    const [retry] = ofType(r.lines, 'retry');
    expect(retry).toMatchObject({ attempt: 1, delayMs: 1000 });
    expect(retry.error).toMatch(/HTTP 429/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'after the wait' });
  });

  it('500/502/503 bursts: retried with growing backoff, then a clear error and exit 1 after the configured attempts', async () => {
    const arrivals = script([{ status: 500 }, { status: 502 }, { status: 503, errorMessage: 'upstream overloaded' }, { content: 'too late' }]);
    const r = await run('hi', { ADK_MAX_RETRIES: '2', ADK_RETRY_BASE_MS: '100' });
    expect(r.code).toBe(1);
    expect(arrivals).toHaveLength(3); // 1 attempt + ADK_MAX_RETRIES
    // Exponential backoff with jitter: ≥ 100 ms, then ≥ 200 ms.
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(95);
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(195);
    expect(ofType(r.lines, 'retry').map((x) => x.attempt)).toEqual([1, 2]);
    expect(ofType(r.lines, 'error')).toHaveLength(1);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'error' });
    const stderr = r.stderr.trim().split('\n');
    expect(stderr).toEqual([expect.stringMatching(/^adk: .*3 attempts.*HTTP 503: upstream overloaded/)]);
    expectCleanStderr(r.stderr);
  });

  it('the default policy makes 3 retries (4 attempts) before giving up', async () => {
    const arrivals = script([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }, { content: 'never' }]);
    const r = await run('hi', { ADK_RETRY_BASE_MS: undefined });
    expect(r.code).toBe(1);
    expect(arrivals).toHaveLength(4);
    expect(r.stderr).toMatch(/^adk: .*4 attempts.*HTTP 503/);
  });

  it('connection reset mid-stream: retried, and the partial text is not duplicated in the transcript or the session', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    script([{ content: text, resetAfterChunks: 5 }, { content: text }]);
    const r = await run('tell me');
    expect(r.code, r.stderr).toBe(0);
    expect(ofType(r.lines, 'retry')).toHaveLength(1);
    const messages = ofType(r.lines, 'message');
    expect(messages.map((m) => m.content)).toEqual([text]);
    // The deltas after the retry are the whole reply, once.
    const afterRetry = r.lines.slice(r.lines.findIndex((l) => l.type === 'retry'));
    expect(ofType(afterRetry, 'delta').map((d) => d.content).join('')).toBe(text);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: text });

    const session = await showSession(r.lines[0].sessionId, r.env, r.cwd);
    expect(session.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'tell me'],
      ['assistant', text],
    ]);
  });

  it('a stream that stops sending (hang): the idle timeout gives a clear error; the run does not wait forever', async () => {
    script([
      { content: 'starts then stalls', hang: 'after-first-chunk' },
      { hang: 'before-headers' },
    ]);
    const started = Date.now();
    const r = await run('hi', { ADK_IDLE_TIMEOUT_MS: '300', ADK_MAX_RETRIES: '1' });
    expect(r.code).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.stderr).toMatch(/^adk: .*sent nothing for 300 ms \(idle timeout\)/);
    expect(ofType(r.lines, 'retry')).toHaveLength(1);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'error' });
    // Both stalled connections were released, not left open.
    await server.waitForAborted(2, 5000);
    expectCleanStderr(r.stderr);
  });

  it('a truncated SSE stream and an invalid JSON chunk are retried; the run completes with the full answer once', async () => {
    script([
      { content: 'cut short', truncate: true },
      { content: 'broken', invalidJsonChunk: true },
      { content: 'whole answer' },
    ]);
    const r = await run('hi', { ADK_MAX_RETRIES: '2' });
    expect(r.code, r.stderr).toBe(0);
    const retries = ofType(r.lines, 'retry');
    expect(retries.map((x) => x.error)).toEqual([expect.stringMatching(/ended before the reply was complete/), expect.stringMatching(/invalid JSON/)]);
    expect(ofType(r.lines, 'message').map((m) => m.content)).toEqual(['whole answer']);
    const session = await showSession(r.lines[0].sessionId, r.env, r.cwd);
    expect(session.messages.map((m: any) => m.content)).toEqual(['hi', 'whole answer']);
  });

  it('persistent truncation or invalid JSON ends in a clear error and exit 1, never a crash', async () => {
    for (const fault of [{ truncate: true }, { invalidJsonChunk: true }] as const) {
      server.reset();
      script([{ content: 'x', ...fault }, { content: 'y', ...fault }]);
      const r = await run('hi', { ADK_MAX_RETRIES: '1' });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^adk: .*(ended before the reply was complete|invalid JSON)/);
      expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'error' });
      expectCleanStderr(r.stderr);
    }
  });

  it('a tool call whose arguments never close: the model gets an error result and the run goes on', async () => {
    script([{ toolCalls: [{ id: 'call_open', name: 'list_dir', arguments: { path: '.' } }], unclosedToolArgs: true }, { content: 'recovered' }]);
    const r = await run('list');
    expect(r.code, r.stderr).toBe(0);
    const [result] = ofType(r.lines, 'tool_result');
    expect(result).toMatchObject({ id: 'call_open', isError: true });
    expect(result.content).toMatch(/not valid JSON/);
    // The model saw the error and answered.
    const second = server.chatRequests[1].body.messages.find((m: any) => m.role === 'tool');
    expect(second.content).toMatch(/not valid JSON/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'recovered' });
  });

  it('a 200 that is an HTML page: a clear error naming the base URL, not retried', async () => {
    const arrivals = script([{ html: true }, { content: 'unused' }]);
    const r = await run('hi');
    expect(r.code).toBe(1);
    expect(arrivals).toHaveLength(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^adk: .*HTML page.*OPENAI_BASE_URL/)]);
    expect(r.stdout + r.stderr).not.toContain(FAULT_KEY);
    expectCleanStderr(r.stderr);
  });
});
