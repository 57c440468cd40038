import { childSignal, raceAbort } from '../abort.js';
import { cancelledBy, toError } from '../errors.js';
import type { RunContext } from '../agents/run-context.js';
import type { AgentAction, AgentEvent } from '../agents/events.js';
import type { InterruptSignal, ResumeInfo } from '../interrupt.js';
import type { Message, ToolCall } from '../schema/message.js';
import { validateArguments } from './parameters.js';
import { ToolInterrupt, type Tool, type ToolContext, type ToolOutput } from './tool.js';
import type { ToolCallResult } from '../agents/handlers.js';

export type { ToolCallResult } from '../agents/handlers.js';

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

export interface ToolCallEnv {
  signal: AbortSignal;
  agentName: string;
  runPath: string[];
  sessionValues: Record<string, unknown>;
  /** The run's tool options for the calling agent (ToolContext.options). */
  options?: Readonly<Record<string, unknown>> | undefined;
  resume: ResumeInfo;
  emit(event: AgentEvent): void;
  timeoutMs?: number | undefined;
  runContext?: RunContext | undefined;
  messages?: readonly Message[] | undefined;
}


/** Parses a model's raw argument string. Empty means `{}` (many models send "" for no arguments). */
export function parseToolArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * Runs one tool call. Every failure the model can recover from (bad JSON, schema mismatch,
 * unknown tool, a throw, a timeout) becomes an error result the model sees; only cancellation
 * of the whole run propagates.
 */
export async function executeToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, Tool>,
  env: ToolCallEnv,
  argsOverride?: unknown,
): Promise<ToolCallResult> {
  const name = call.function.name;
  const tool = tools.get(name);
  if (!tool) {
    const known = [...tools.keys()].join(', ') || 'none';
    return fail(`Error: tool '${name}' does not exist. Available tools: ${known}.`);
  }
  let args = argsOverride;
  if (args === undefined) {
    const parsed = parseToolArguments(call.function.arguments);
    if (!parsed.ok) return fail(`Error: the arguments of '${name}' are not valid JSON (${parsed.error}). Send a JSON object.`);
    args = parsed.value;
  }
  const valid = validateArguments(tool, args);
  if (!valid.ok) return fail(`Error: invalid arguments for '${name}': ${valid.error}`, args);

  let action: AgentAction | undefined;
  const { signal, dispose } = childSignal(env.signal, tool.timeoutMs ?? env.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS);
  const ctx: ToolContext = {
    signal,
    callId: call.id,
    agentName: env.agentName,
    runPath: env.runPath,
    sessionValues: env.sessionValues,
    options: env.options ?? {},
    resume: env.resume,
    interrupt(info, state) {
      throw new ToolInterrupt(info, state);
    },
    sendAction(a) {
      action = { ...action, ...a };
    },
    emit: env.emit,
    runContext: env.runContext,
    messages: env.messages,
  };
  try {
    const out = await raceAbort(Promise.resolve().then(() => tool.execute(valid.value, ctx)), signal);
    const { content, isError = false, structured, subRun } = normalize(out);
    return { kind: 'done', content, isError, action, arguments: valid.value, ...(structured !== undefined ? { structured } : {}), ...(subRun ? { subRun } : {}) };
  } catch (e) {
    if (e instanceof ToolInterrupt) return { kind: 'interrupt', info: e.info, state: e.state, subs: e.subs };
    if (env.signal.aborted) throw cancelledBy(env.signal);
    if (signal.aborted) return fail(`Error: tool '${name}' timed out after ${tool.timeoutMs ?? env.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS} ms.`, args);
    return fail(`Error: tool '${name}' failed: ${toError(e).message}`, args);
  } finally {
    dispose();
  }
}

function fail(content: string, args?: unknown): ToolCallResult {
  return { kind: 'done', content, isError: true, arguments: args };
}

function normalize(out: string | ToolOutput | unknown): ToolOutput {
  if (typeof out === 'string') return { content: out };
  if (out && typeof out === 'object' && typeof (out as ToolOutput).content === 'string') return out as ToolOutput;
  return { content: out === undefined ? '' : JSON.stringify(out) };
}
