import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { OpenAITestServer } from '../support/openai-server.js';
import { expectExit, runCli, serverEnv, sessionIdOf, tempDir, writeAgentsFile, shellApprovalAgents } from '../cli/helpers.js';

export const LOCK_AGENTS = shellApprovalAgents(['shell']);

/** Ask for one slow command per session; answer "done" once its result is in. */
export function scriptShell(server: OpenAITestServer, command: string): void {
  server.onRequest((req) => {
    const last = req.body.messages.at(-1);
    if (last.role === 'tool') return { content: 'done' };
    if (last.role === 'user' && /^turn /.test(last.content)) return { content: `ok ${last.content}`, delayMs: 300 };
    return { toolCalls: [{ name: 'shell', arguments: { command } }] };
  });
}

export interface Trial {
  env: Record<string, string | undefined>;
  cwd: string;
  agents: string;
  id: string;
}

/** A session waiting for approval of `command`, in a folder of its own. */
export async function waitingSession(server: OpenAITestServer, home: string, store: string | undefined): Promise<Trial> {
  const cwd = tempDir('adk-lock-work-');
  const agents = writeAgentsFile(tempDir('adk-lock-cfg-'), LOCK_AGENTS);
  const env = { ...serverEnv(server, 'test-key-123456', home), ADK_STORE: store };
  const r = await expectExit(['run', '--agents', agents, '--json', 'run it'], 3, { env, cwd });
  return { env, cwd, agents, id: sessionIdOf(r) };
}

/** A finished one-turn session to add turns to. */
export async function finishedSession(server: OpenAITestServer, home: string): Promise<Trial> {
  const cwd = tempDir('adk-lock-work-');
  const agents = writeAgentsFile(tempDir('adk-lock-cfg-'), LOCK_AGENTS);
  const env = serverEnv(server, 'test-key-123456', home);
  const r = await expectExit(['run', '--agents', agents, '--json', 'turn 0'], 0, { env, cwd });
  return { env, cwd, agents, id: sessionIdOf(r) };
}

export const IN_USE = /session \w+ is in use by pid \d+ on \S+ since \d{4}-\d\d-\d\dT/;

/** Two `adk resume --approve` at once: the command runs exactly once and the loser is told who holds the session. */
export async function racingResumes(t: Trial): Promise<void> {
  const [a, b] = await Promise.all([
    runCli(['resume', t.id, '--approve', '--json'], { env: t.env, cwd: t.cwd, timeoutMs: 30_000 }),
    runCli(['resume', t.id, '--approve', '--json'], { env: t.env, cwd: t.cwd, timeoutMs: 30_000 }),
  ]);
  const codes = [a.code, b.code].sort();
  expect(codes, `${a.stderr}\n${b.stderr}`).toEqual([0, 2]);
  const loser = a.code === 2 ? a : b;
  expect(loser.stderr).toMatch(IN_USE);
  const ran = join(t.cwd, 'ran.txt');
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('ran\n');
}
