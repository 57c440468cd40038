import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellApprovalAgents, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { serveEnv, startServeProcess, startWorkerProcess, useRedisAndChildren } from './serve-process.js';

// Issue 44: unattended turns on `adk worker`. A session made through `adk serve` with a policy keeps
// it in the store, so the worker that runs its queued turns denies (or fails on) what nobody can
// approve; a worker started with `--max-model-calls` stops each turn at that budget, and raising it
// over HTTP goes on, on the worker, from where the turn stopped.
const model = useServer();
const { redis: redisServer, children } = useRedisAndChildren();

describe('adk worker: session policies and budgets', () => {
  it('on_approval deny and fail hold on the worker; --max-model-calls stops a turn there and {"raise"} goes on', async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'adk-worker-policy-')));
    const agents = writeAgentsFile(home, shellApprovalAgents());
    const env = serveEnv(home, model().url, { ADK_STORE: redisServer().url, ADK_SHELL_SANDBOX: 'off' });
    trustAgentsFile(env.ADK_HOME!, agents);
    model().onRequest((req) => {
      const messages = req.body.messages as Array<{ role: string; content?: string }>;
      const last = messages.at(-1)!;
      if (last.role === 'user') return { toolCalls: [{ id: `c${messages.length}`, name: 'shell', arguments: { command: 'touch ran.txt' } }] };
      return { content: `after: ${String(last.content).slice(0, 100)}` };
    });
    await startWorkerProcess(home, env, children, ['--max-model-calls', '1']);
    const { url } = await startServeProcess(home, env, children, ['--agents', agents]);
    const post = async (path: string, body: unknown) => (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
    const session = async (policy?: unknown) => ((await post('/v1/sessions', policy ? { policy } : {})) as { id: string }).id;

    // deny: the shell call is answered "no"; the model's next request is past the worker's budget of 1, so the turn stops there.
    const denied = await session({ on_approval: 'deny' });
    const d = await post(`/v1/sessions/${denied}/messages`, { content: 'touch it' });
    expect(d.status).toBe('interrupted');
    const pending = ((await (await fetch(`${url}/v1/sessions/${denied}`)).json()) as any).pending;
    expect(pending).toMatchObject([{ kind: 'budget', budget: { name: 'max_model_calls', spent: 1, limit: 1 } }]);
    // Raised over HTTP: the worker goes on from that point; the model saw the denial.
    const raised = await post(`/v1/sessions/${denied}/interrupts`, { raise: { max_model_calls: 3 } });
    expect(raised).toMatchObject({ status: 'completed', output: expect.stringContaining('Not run: adk is running unattended') });
    expect(existsSync(join(home, 'ran.txt'))).toBe(false);

    // fail: the turn ends incomplete, naming the call; nothing ran.
    const failed = await session({ on_approval: 'fail' });
    const f = await post(`/v1/sessions/${failed}/messages`, { content: 'touch it' });
    expect(f).toMatchObject({ status: 'incomplete', reason: 'approval_needed', interrupts: [{ kind: 'approval', tool: 'shell' }], error: expect.stringContaining('shell {"command":"touch ran.txt"}') });
    expect(existsSync(join(home, 'ran.txt'))).toBe(false);
  }, 60_000);
});
