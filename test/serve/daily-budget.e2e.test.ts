import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer, writeAgentsFile } from '../cli/helpers.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';

// Issue 44: a daily budget shared by two `adk worker` processes on one Redis. Model calls are counted
// in Redis before they start, so together the workers never pass the cap; cost is known only once a
// reply lands, so they pass it by at most the calls they have in flight (one per worker here).
const model = useServer();
const { redis: redisServer, children } = useRedisAndChildren();
const AGENTS = `version: 1
default: ticker
agents:
  ticker:
    description: Asks the time forever.
    instruction: Keep asking.
    tools: [current_time]
`;

async function twoWorkers(args: string[], extra: Record<string, string> = {}) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-daily-')));
  const agents = writeAgentsFile(home, AGENTS);
  const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url, ...extra });
  let n = 0;
  model().onRequest(() => ({ toolCalls: [{ id: `t${++n}`, name: 'current_time', arguments: {} }], delayMs: 100 }));
  await Promise.all([startWorkerProcess(home, env, children, args), startWorkerProcess(home, env, children, args)]);
  const { url } = await startServeProcess(home, env, children, ['--agents', agents]);
  const post = async (path: string, body: unknown) => (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
  const ids = await Promise.all([1, 2, 3, 4].map(async () => ((await post('/v1/sessions', {})) as { id: string }).id));
  // Four turns at once over the two workers.
  return Promise.all(ids.map((id) => post(`/v1/sessions/${id}/messages`, { content: 'tick' })));
}

describe('daily budgets shared by two workers on one Redis', () => {
  it('--max-daily-model-calls 7: the model sees exactly 7 calls over every turn of both workers; each turn ends incomplete (budget)', async () => {
    const results = await twoWorkers(['--max-daily-model-calls', '7']);
    expect(model().chatRequests).toHaveLength(7);
    for (const r of results) expect(r).toMatchObject({ status: 'incomplete', reason: 'budget' });
    expect(results.map((r) => r.error).find((e: string) => /daily budget reached: max_daily_model_calls \(7 spent today of 7 on redis:/.test(e))).toBeTruthy();
  }, 60_000);

  it('--max-daily-cost: passed by at most one call in flight per worker', async () => {
    // gpt-4o-mini is priced by the bundled list; the first reply of each worker already spends past $0.000001.
    const results = await twoWorkers(['--max-daily-cost', '0.000001'], { ADK_MODEL: 'gpt-4o-mini' });
    expect(model().chatRequests.length).toBeGreaterThanOrEqual(1);
    expect(model().chatRequests.length).toBeLessThanOrEqual(2);
    for (const r of results) expect(r).toMatchObject({ status: 'incomplete', reason: 'budget' });
  }, 60_000);

  it("--max-daily-model-calls on adk serve counts one token's day: a second server with its own token keeps its own; the message names a fingerprint, never the token", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-daily-token-')));
    const agents = writeAgentsFile(home, AGENTS);
    model().onRequest(() => ({ toolCalls: [{ id: `t${model().chatRequests.length}`, name: 'current_time', arguments: {} }] }));
    const tokens = ['token-of-team-a-0123456789abcdef', 'token-of-team-b-0123456789abcdef'];
    const servers = await Promise.all(tokens.map((t) => startServeProcess(home, serveEnv(home, model().url, { ADK_SERVE_TOKEN: t }), children, ['--agents', agents, '--max-daily-model-calls', '2'])));
    const turn = async (s: (typeof servers)[number]) => {
      const post = async (path: string, body: unknown) => (await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
      const { id } = (await post('/v1/sessions', {})) as { id: string };
      return post(`/v1/sessions/${id}/messages`, { content: 'tick' });
    };
    const a1 = await turn(servers[0]!);
    expect(model().chatRequests).toHaveLength(2);
    expect(a1).toMatchObject({ status: 'incomplete', reason: 'budget' });
    expect(a1.error).toMatch(/daily budget reached: max_daily_model_calls \(2 spent today of 2 on sqlite:\S+, serve token [0-9a-f]{12}\)/);
    for (const t of tokens) expect(JSON.stringify(a1)).not.toContain(t);
    // The same token's next turn: nothing left today.
    expect(await turn(servers[0]!)).toMatchObject({ status: 'incomplete', reason: 'budget' });
    expect(model().chatRequests).toHaveLength(2);
    // Another token on the same store: its own two.
    const b1 = await turn(servers[1]!);
    expect(model().chatRequests).toHaveLength(4);
    expect(b1).toMatchObject({ status: 'incomplete', reason: 'budget' });
    expect(b1.error.match(/serve token ([0-9a-f]{12})/)[1]).not.toBe(a1.error.match(/serve token ([0-9a-f]{12})/)[1]);
  }, 60_000);
});
