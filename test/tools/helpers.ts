import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ResumeInfo } from '../../src/core/interrupt.js';
import { ToolInterrupt, type Tool, type ToolContext, type ToolOutput } from '../../src/core/tools/tool.js';

export const FIXTURES = path.join(import.meta.dirname, 'fixtures');

export function fakeCtx(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    callId: 'call_1',
    agentName: 'tester',
    runPath: ['tester'],
    sessionValues: {},
    options: {},
    resume: { wasInterrupted: false, isResumeTarget: false, hasData: false },
    interrupt(info: unknown, state?: unknown): never {
      throw new ToolInterrupt(info, state);
    },
    sendAction() {},
    emit() {},
    ...overrides,
  };
}

export function resumed(data: unknown, isResumeTarget = true): ResumeInfo {
  return { id: 'i1', wasInterrupted: true, isResumeTarget, hasData: data !== undefined, data };
}

/** Runs a tool directly; a thrown error comes back as an error result, as the executor would give it. */
export async function run(tool: Tool, args: unknown, ctx: ToolContext = fakeCtx()): Promise<Required<Pick<ToolOutput, "content" | "isError">>> {
  try {
    const out = await tool.execute(args, ctx);
    if (typeof out === 'string') return { content: out, isError: false };
    return { content: out.content, isError: out.isError ?? false };
  } catch (e) {
    if (e instanceof ToolInterrupt) throw e;
    return { content: `thrown: ${(e as Error).message}`, isError: true };
  }
}

export interface Sandbox {
  /** The workspace root (real path). */
  root: string;
  /** A sibling folder outside the workspace. */
  outside: string;
  write(rel: string, content: string | Buffer): Promise<string>;
  read(rel: string): string;
  exists(rel: string): boolean;
  cleanup(): Promise<void>;
}

export async function sandbox(): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'adk-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  return {
    root,
    outside,
    async write(rel, content) {
      const p = path.join(root, rel);
      await mkdir(path.dirname(p), { recursive: true });
      await writeFile(p, content);
      return p;
    },
    read: (rel) => readFileSync(path.join(root, rel), 'utf8'),
    exists: (rel) => existsSync(path.join(root, rel)),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** A process that is gone or a zombie no longer runs anything. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

export async function waitFor(cond: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}
