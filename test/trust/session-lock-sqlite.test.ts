import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAdkStores } from '../../src/core/store/index.js';
import { runCli, tempHome, useServer } from '../cli/helpers.js';
import { finishedSession, IN_USE, racingResumes, scriptShell, waitingSession } from './lock-helpers.js';

// Issue 11, item 4: one writer per session (SQLite). The Redis half is in session-lock-redis.test.ts.
const server = useServer();
const TRIALS = 20;

describe('one writer per session on SQLite', () => {
  it(`${TRIALS} trials of two simultaneous adk resume --approve: the command runs once, the loser exits 2 naming the holder`, async () => {
    scriptShell(server(), 'echo ran >> ran.txt; sleep 1');
    const home = tempHome();
    for (let i = 0; i < TRIALS; i++) await racingResumes(await waitingSession(server(), home, undefined));
  }, 180_000);

  it(`${TRIALS} trials of two simultaneous adk run --session: no turn is lost`, async () => {
    scriptShell(server(), 'true');
    const home = tempHome();
    let refused = 0;
    for (let i = 0; i < TRIALS; i++) {
      const t = await finishedSession(server(), home);
      const [a, b] = await Promise.all(
        ['turn A', 'turn B'].map((p) => runCli(['run', '--session', t.id, '--json', p], { env: t.env, cwd: t.cwd, timeoutMs: 30_000 })),
      );
      for (const r of [a, b]) {
        expect([0, 2], r.stderr).toContain(r.code);
        if (r.code === 2) expect(r.stderr).toMatch(IN_USE);
      }
      refused += [a, b].filter((r) => r.code === 2).length;
      const stores = await openAdkStores(`sqlite://${join(home, 'adk.sqlite')}`);
      try {
        const users = (await stores.sessions.get(t.id))!.messages.filter((m) => m.role === 'user').map((m) => m.content);
        const expected = ['turn 0', ...(a.code === 0 ? ['turn A'] : []), ...(b.code === 0 ? ['turn B'] : [])];
        expect([...users].sort()).toEqual([...expected].sort());
      } finally {
        await stores.close();
      }
    }
    // With a 300 ms model reply the runs overlap: the lock, not luck, kept the turns.
    expect(refused).toBeGreaterThan(0);
  }, 180_000);

  it('a SIGKILLed owner does not hold the session: another process takes it at once (same machine, dead pid)', async () => {
    const marker = `sleep 29.${process.pid}`;
    scriptShell(server(), `touch started; ${marker}`);
    const home = tempHome();
    const t = await waitingSession(server(), home, undefined);
    const owner = runCli(['resume', t.id, '--approve', '--json'], { env: t.env, cwd: t.cwd, timeoutMs: 30_000 });
    const until = Date.now() + 15_000;
    while (!existsSync(join(t.cwd, 'started')) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const pid = execFileSync('pgrep', ['-f', `adk.js resume ${t.id}`], { encoding: 'utf8' }).trim().split('\n')[0];
    process.kill(Number(pid), 'SIGKILL');
    expect((await owner).signal).toBe('SIGKILL');
    try {
      execFileSync('pkill', ['-f', marker]);
    } catch {
      /* already gone */
    }
    const started = Date.now();
    const next = await runCli(['resume', t.id, '--reject', '--reason', 'stop', '--json'], { env: t.env, cwd: t.cwd });
    const tookMs = Date.now() - started;
    // The command had started: the new process may not run it again unasked, but it may take the session.
    expect(next.stderr).not.toMatch(IN_USE);
    expect(next.code, next.stderr).toBe(0);
    expect(tookMs).toBeLessThan(10_000);
  }, 60_000);

  it('a lease held by a process on another machine is honoured until it expires, then taken', async () => {
    scriptShell(server(), 'true');
    const home = tempHome();
    const t = await waitingSession(server(), home, undefined);
    // The remote holder's lease is long while the CLI is refused, then made to run out: no race with a slow machine.
    const holder = JSON.stringify({ owner: 'elsewhere', pid: 4242, host: 'other-machine', since: '2026-11-23T10:00:00.000Z' });
    const withStores = async (f: (s: Awaited<ReturnType<typeof openAdkStores>>) => Promise<void>) => {
      const stores = await openAdkStores(`sqlite://${join(home, 'adk.sqlite')}`);
      try {
        await f(stores);
      } finally {
        await stores.close();
      }
    };
    await withStores(async (s) => expect(await s.kv.leases.acquire(`session:${t.id}`, 'elsewhere', holder, 60_000)).toEqual({ ok: true }));
    const refused = await runCli(['resume', t.id, '--reject', '--json'], { env: t.env, cwd: t.cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`session ${t.id} is in use by pid 4242 on other-machine since 2026-11-23T10:00:00.000Z`);
    await withStores(async (s) => expect(await s.kv.leases.renew(`session:${t.id}`, 'elsewhere', holder, 1)).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    const taken = await runCli(['resume', t.id, '--reject', '--json'], { env: t.env, cwd: t.cwd });
    expect(taken.code, taken.stderr).toBe(0);
  }, 60_000);
});
