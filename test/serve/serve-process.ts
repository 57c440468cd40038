import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADK_BIN } from '../support/cli.js';

/** The environment of an `adk serve` pointed at a local OpenAI-compatible server, with its own ADK_HOME under `home`. */
export function serveEnv(home: string, modelUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, ADK_HOME: join(home, 'adk'), OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test', ...extra };
}

/**
 * Starts `adk serve --port 0` in `home`; resolves once it listens (stderr so far in `log()`).
 * `url` carries the server's token as a path prefix (`…/t/<token>`), as a front end that cannot
 * send a header uses it; `base` is the bare address and `token` the token (read from ADK_HOME).
 */
export function startServeProcess(home: string, env: Record<string, string>, children: ChildProcess[], args: string[] = []): Promise<{ url: string; base: string; token: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, [ADK_BIN, 'serve', '--port', '0', ...args], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m && /every request needs the token|--no-token/.test(err)) {
        const token = env.ADK_SERVE_TOKEN ?? (args.includes('--no-token') ? '' : readFileSync(join(env.ADK_HOME!, 'serve-token'), 'utf8').trim());
        resolve({ url: token ? `${m[1]!}/t/${token}` : m[1]!, base: m[1]!, token, child, log: () => err });
      }
    });
    child.once('exit', () => reject(new Error(`adk serve exited: ${err}`)));
  });
}

/** Starts `adk worker` in `home`; resolves once it waits for turns (its stderr so far in `log()`). */
export function startWorkerProcess(home: string, env: Record<string, string>, children: ChildProcess[], args: string[] = []): Promise<{ child: ChildProcess; pid: number; log: () => string }> {
  const child = spawn(process.execPath, [ADK_BIN, 'worker', ...args], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      if (/waiting for turns/.test(err)) resolve({ child, pid: child.pid!, log: () => err });
    });
    child.once('exit', (code) => reject(new Error(`adk worker exited (${code}): ${err}`)));
  });
}

/**
 * One redis-server for a test file, and the serve/worker processes each test starts (pushed on
 * `children`), killed after each test: a worker left over would take the next test's jobs from the
 * shared Redis (with another ADK_HOME).
 */
export function useRedisAndChildren(): { redis: () => RedisServer; children: ChildProcess[] } {
  const children: ChildProcess[] = [];
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterEach(async () => {
    const list = children.splice(0);
    const exits = list.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve()));
    for (const c of list) c.kill('SIGKILL');
    await Promise.all(exits);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return { redis: () => redis!, children };
}
