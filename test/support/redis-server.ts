import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** SIGKILL, no cleanup: for "the server died" tests. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export const REDIS_MISSING =
  'redis-server is not installed (not found on PATH). The store tests need a real Redis: apt-get install -y redis-server';

function redisServerPath(env: NodeJS.ProcessEnv): string {
  const found = spawnSync('/bin/sh', ['-c', 'command -v redis-server'], { encoding: 'utf8', env });
  const path = (found.stdout ?? '').trim();
  if (found.status !== 0 || !path) throw new Error(REDIS_MISSING);
  return path;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    let data = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.on('error', () => done(false));
    sock.on('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      data += d.toString();
      if (data.includes('\r\n')) done(data.startsWith('+PONG'));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface StartRedisOptions {
  /** Reuse a port, e.g. to restart a server that was killed. */
  port?: number;
  /** Where to look for redis-server (PATH); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Starts a throwaway redis-server on a free loopback port; resolves once it answers PING. */
export async function startRedisServer(opts: StartRedisOptions = {}): Promise<RedisServer> {
  const bin = redisServerPath(opts.env ?? process.env);
  const dir = mkdtempSync(join(tmpdir(), 'adk-redis-'));
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = opts.port ?? (await freePort());
    const child = spawn(bin, ['--save', '', '--appendonly', 'no', '--port', String(port), '--bind', '127.0.0.1', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (await ping(port)) {
        const kill = async () => {
          child.kill('SIGKILL');
          await exited(child);
        };
        return {
          port,
          url: `redis://127.0.0.1:${port}`,
          process: child,
          kill,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill('SIGTERM');
              const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
              await exited(child);
              clearTimeout(timer);
            }
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await exited(child);
    lastError = output.trim().split('\n').slice(-3).join('\n');
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`redis-server did not start: ${lastError}`);
}
