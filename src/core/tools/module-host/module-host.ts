import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { cancelledBy, ConfigError } from '../../errors.js';
import { ToolInterrupt, type Tool, type ToolContext, type ToolOutput } from '../tool.js';
import { startModuleProcess, type ModuleProcess, type ModuleSandbox } from './module-process.js';

/** After a cancel, a call gets this long to stop by itself before its worker is terminated. */
const STOP_GRACE_MS = 500;
/** A module whose top level has not finished loading by then (an await that never settles) is stopped. */
const LOAD_TIMEOUT_MS = 30_000;

interface Ready {
  type: 'ready';
  isObject: boolean;
  typeOf: string;
  name?: unknown | undefined;
  description?: unknown | undefined;
  parameters?: unknown | undefined;
  schemaError?: string | undefined;
  hasExecute: boolean;
  timeoutMs?: unknown | undefined;
}

interface Pending {
  resolve(out: string | ToolOutput): void;
  reject(e: unknown): void;
  ctx: ToolContext;
}

export interface HostedModule {
  /** What the export looks like, for the shape check. */
  describe: Ready;
  tool(check: (standIn: Tool) => Tool): Tool;
  close(): Promise<void>;
}

/**
 * Runs a module tool in a process of its own (module-process.ts): inside the sandbox where bwrap works,
 * so its code can read no memory of a process that holds a key (adk's `/proc/PID/mem` included) and a
 * module swapped after its check still runs with no more power than a sandboxed command; it sees only
 * `env` as process.env. A call stuck in CPU work is stopped by ending the process, so a cancel always
 * takes effect; the process is started again for the next call.
 */
export async function hostModule(file: string, exportName: string, where: string, env: NodeJS.ProcessEnv, codeGuard?: () => Promise<string | undefined>, sandbox?: () => Promise<ModuleSandbox>): Promise<HostedModule> {
  // zod's ES module entry, as the person's module gets it; the CLI's CommonJS bundle has no
  // import.meta.resolve and takes the CommonJS entry (zod shares its registry across the two).
  const zodUrl = typeof import.meta.resolve === 'function' ? import.meta.resolve('zod') : pathToFileURL(createRequire(import.meta.url).resolve('zod')).href;
  let worker: ModuleProcess | undefined;
  let describe: Ready | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (e: unknown) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };

  /** Refuses to load or run code that is no longer what was trusted. */
  async function guard(): Promise<void> {
    const changed = await codeGuard?.();
    if (changed) throw new ConfigError(`module '${where}' was not run: ${changed} since the folder was trusted (a tool or command may have written it). Review the change, then run adk trust and start a new session.`);
  }

  async function stop(): Promise<void> {
    const w = worker;
    worker = undefined;
    await w?.terminate();
  }

  /** Loads the module in a new process: within LOAD_TIMEOUT_MS, and given up at once when `signal` fires (the call that restarted it was cancelled). */
  async function start(signal?: AbortSignal): Promise<Ready> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort = () => {};
    const givenUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ConfigError(`module '${where}' did not finish loading within ${LOAD_TIMEOUT_MS / 1000} s (its top level waits on something)`)), LOAD_TIMEOUT_MS);
      onAbort = () => reject(cancelledBy(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([load(), givenUp]);
    } catch (e) {
      await stop();
      throw e;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function load(): Promise<Ready> {
    await guard();
    const w = startModuleProcess({ file: pathToFileURL(file).href, exportName, zodUrl }, env, (await sandbox?.()) ?? { spec: { workspace: process.cwd(), network: true } });
    worker = w;
    // Held while it loads; idle afterwards, it does not keep adk running (each call refs it again).
    w.ref();
    return new Promise<Ready>((resolve, reject) => {
      w.onMessage((m) => {
        if (m.type === 'ready') {
          if (!pending.size) w.unref();
          return resolve(m as unknown as Ready);
        }
        if (m.type === 'load-error' || m.type === 'no-export') w.unref();
        if (m.type === 'load-error') return reject(new ConfigError(`module '${where}' could not be loaded: ${String(m.message)}`));
        if (m.type === 'no-export') {
          const names = (m.exports as string[]).sort().join(', ') || 'none';
          return reject(new ConfigError(`module '${where}' has no export '${exportName}' (its exports: ${names})`));
        }
        const p = m.id === undefined ? undefined : pending.get(m.id);
        if (!p) return;
        if (m.type === 'event') return p.ctx.emit(m.event as never);
        if (m.type === 'action') return p.ctx.sendAction(m.action as never);
        pending.delete(m.id!);
        if (!pending.size) w.unref();
        if (m.type === 'result') p.resolve(m.output as string | ToolOutput);
        else if (m.type === 'interrupt') p.reject(new ToolInterrupt(m.info, m.state));
        else p.reject(new Error(String(m.message)));
      });
      w.onExit((stderr) => {
        const why = stderr ? `: ${stderr.split('\n').slice(-3).join(' ')}` : '';
        reject(new ConfigError(`module '${where}' stopped while loading${why}`));
        if (worker === w) worker = undefined;
        failAll(new Error(`module tool stopped${why}`));
      });
    });
  }

  describe = await start();

  async function call(args: unknown, ctx: ToolContext): Promise<string | ToolOutput> {
    if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
    if (!worker) await start(ctx.signal);
    else await guard();
    const w = worker!;
    const id = nextId++;
    const result = new Promise<string | ToolOutput>((resolve, reject) => pending.set(id, { resolve, reject, ctx }));
    const onAbort = () => {
      w.postMessage({ type: 'abort', id });
      // CPU-bound code never sees the signal: end its thread.
      setTimeout(() => {
        if (pending.has(id) && worker === w) void stop();
      }, STOP_GRACE_MS).unref();
    };
    if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    w.ref();
    w.postMessage({ type: 'call', id, args, ctx: plainContext(ctx) });
    try {
      return await result;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    describe,
    tool(check) {
      const standIn = {
        name: describe!.name,
        description: describe!.description,
        parameters: describe!.parameters,
        execute: describe!.hasExecute ? call : undefined,
        ...(describe!.timeoutMs !== undefined ? { timeoutMs: describe!.timeoutMs } : {}),
      } as unknown as Tool;
      return check(standIn);
    },
    close: stop,
  };
}

/** The serialisable part of a call's context (the rest travels as messages). */
function plainContext(ctx: ToolContext): Record<string, unknown> {
  const plain = { callId: ctx.callId, agentName: ctx.agentName, runPath: ctx.runPath, sessionValues: ctx.sessionValues, options: ctx.options, resume: ctx.resume, messages: ctx.messages };
  try {
    return structuredClone(plain);
  } catch {
    return JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
  }
}
