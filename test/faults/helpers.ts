import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ADK_BIN, runCli, type CliOptions, type CliResult } from '../support/cli.js';
import type { OpenAITestServer } from '../support/openai-server.js';

export { jsonLines } from '../support/cli.js';

/** The API key every fault test runs with; the suite greps outputs and stores for it. */
export const FAULT_KEY = 'sk-fault-SECRET-5f0c1d2e3a4b';

export const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), `adk-fault-${prefix}-`)));

/** A workspace (cwd of the CLI) and an ADK_HOME, both fresh. */
export function workspace(): { cwd: string; home: string } {
  const base = tempDir('ws');
  const cwd = join(base, 'work');
  const home = join(base, 'home');
  mkdirSync(cwd);
  return { cwd, home };
}

/** Environment pointing the CLI at the local model server, with fast retries unless overridden. */
export function modelEnv(server: OpenAITestServer, home: string, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: FAULT_KEY,
    ADK_MODEL: 'fault-model',
    ADK_HOME: home,
    ADK_STORE: undefined,
    ADK_RETRY_BASE_MS: '20',
    ...extra,
  };
}

export const ofType = (lines: any[], type: string) => lines.filter((l) => l && typeof l === 'object' && l.type === type);

/** A clear failure: one `adk: …` line per problem, never a stack trace. */
export function expectCleanStderr(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toMatch(/Unhandled|UnhandledPromiseRejection|node:internal/);
}

export function cli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runCli(args, opts);
}

/** The saved session as `adk sessions show <id> --json` prints it. */
export async function showSession(id: string, env: Record<string, string | undefined>, cwd?: string): Promise<any> {
  const r = await runCli(['sessions', 'show', id, '--json'], { env, cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves on the first stdout line that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves once stderr matches. */
  waitForStderr(match: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The built CLI as a child process the test controls (signals, timing). */
export function spawnCli(args: string[], opts: { env: Record<string, string | undefined>; cwd?: string; input?: string | Buffer }): Spawned {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...opts.env })) if (v !== undefined) env[k] = v;
  if (!('OPENAI_API_KEY' in opts.env)) delete env.OPENAI_API_KEY;
  const child = spawn(process.execPath, [ADK_BIN, ...args], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: Array<{ match: (l: string) => boolean; resolve: (l: string) => void }> = [];
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    pending += d;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  // A child killed before it read all of its stdin must not crash the test with EPIPE.
  child.stdin!.on('error', () => {});
  if (opts.input !== undefined) child.stdin!.end(opts.input);
  else child.stdin!.end();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async waitForStderr(match, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!match.test(err)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`stderr never matched ${match}; stderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    waitForLine(match, timeoutMs = 15_000) {
      const already = out.split('\n').slice(0, -1).find(match);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`)), timeoutMs);
        waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      });
    },
  };
}

export function writeAgentsFile(dir: string, text: string, name = 'agents.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
