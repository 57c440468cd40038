import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { runCli } from '../support/cli.js';
import { serveEnv, startServeProcess } from './serve-process.js';
import { readSse } from './sse.js';

// Issue 17: `adk serve` as a person starts it: loopback by default, a token beyond it, SIGTERM saves
// the turn that is running.
const model = useServer();

const env = (home: string) => serveEnv(home, model().url);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** `adk serve` with a model that answers slowly, and a new session on it. */
async function slowTurnSession() {
  model().onRequest(() => ({ content: 'a b c d e f g h i j k l m n o p', chunkSize: 2, chunkDelayMs: 200 }));
  const home = mkdtempSync(join(tmpdir(), 'adk-serve-'));
  const { url, child, log } = await startServeProcess(home, env(home), children);
  const post = (path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const { id } = (await (await post('/v1/sessions', {})).json()) as { id: string };
  return { home, child, log, post, id };
}

describe('adk serve (the command)', () => {
  it('refuses to listen beyond loopback without a token (--no-token)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'adk-serve-'));
    const r = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--no-token'], { env: env(home), cwd: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs a token/);
  });

  it('a port in use is a clear error naming it', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const home = mkdtempSync(join(tmpdir(), 'adk-serve-'));
      const r = await runCli(['serve', '--port', String(port)], { env: env(home), cwd: home });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toMatch(/--port/);
    } finally {
      blocker.close();
    }
  });

  // SIGHUP: the terminal it was started from closed.
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
    it(`serves a turn; ${signal} mid-turn stops it at a safe point, saves it and exits 0`, async () => {
      const { home, child, log, post, id } = await slowTurnSession();
      const events = await readSse(await post(`/v1/sessions/${id}/messages`, { content: 'spell' }), (e) => {
        if (e.event === 'delta') child.kill(signal);
        return e.event === 'done';
      });
      expect(events.at(-1)!.data.status).toBe('cancelled');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
      expect(log()).toContain('stopping');
      const list = await runCli(['sessions', '--json'], { env: env(home), cwd: home });
      expect(list.stdout).toContain(id);
      expect(list.stdout).toMatch(/cancelled/);
    }, 30_000);
  }

  it('a second SIGTERM during a stuck graceful stop ends the process at once; the store stays readable', async () => {
    const { home, child, log, post, id } = await slowTurnSession();
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    const stream = await post(`/v1/sessions/${id}/messages`, { content: 'spell' });
    await readSse(stream, (e) => e.event === 'delta');
    // Another process holds the store's write lock: the save that stopping makes waits on it.
    const holder = new KeyvSqlite({ uri: `sqlite://${join(home, 'adk', 'adk.sqlite')}` });
    await holder.query('BEGIN EXCLUSIVE');
    try {
      child.kill('SIGTERM');
      for (let i = 0; i < 100 && !log().includes('stopping'); i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(child.exitCode, 'the first SIGTERM waits for the save').toBeNull();
      const second = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe('SIGTERM');
      expect(Date.now() - second).toBeLessThan(1000);
    } finally {
      await holder.query('ROLLBACK');
      await holder.disconnect();
    }
    const list = await runCli(['sessions', '--json'], { env: env(home), cwd: home });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(id);
  }, 30_000);
});
