import type { AddressSegment, InterruptSignal, ResumeContext, ResumeInfo } from '../interrupt.js';
import { addressToString, makeSignal } from '../interrupt.js';
import { toolMessage, type Message, type SubRun, type ToolCall } from '../schema/message.js';
import type { ToolCallResult } from '../tools/execute.js';
import type { ToolCallHandler } from './middleware.js';
import { messageEvent, type AgentAction, type AgentEvent } from './types.js';

/** A finished call, cached in the agent's state so a resumed batch never runs it again. */
export interface DoneCall {
  content: string;
  isError: boolean;
  action?: AgentAction | undefined;
  /** The arguments it ran with (JSON), when a person edited them before approving. */
  editedArguments?: string | undefined;
  /** The result came from the run's journal (an earlier attempt of the turn ran the call). */
  replayed?: boolean | undefined;
  /** The result as data too (MCP structuredContent). */
  structured?: unknown;
  /** An agent tool's inner run. */
  subRun?: SubRun | undefined;
}

export interface ToolBatchEnv {
  returnDirectly: ReadonlySet<string>;
  address: AddressSegment[];
  resume?: ResumeContext | undefined;
  signal: AbortSignal;
  agentName: string;
  emit(event: AgentEvent): void;
  /** Runs one call through the agent's middlewares (approval among them) to the tool. */
  handler: ToolCallHandler;
}

export interface ToolBatchResult {
  done: Record<string, DoneCall>;
  interrupts: InterruptSignal[];
  /** The call whose result ends the agent's run (the last return-directly call in the batch). */
  returnDirectlyId?: string | undefined;
  /** The run was cancelled: some calls did not finish; `done` holds those that did. */
  cancelled?: boolean | undefined;
}

const NO_RESUME: ResumeInfo = { wasInterrupted: false, isResumeTarget: false, hasData: false };

/**
 * Runs a batch of tool calls in parallel. Each result is emitted as soon as it finishes, except
 * the return-directly call, whose event is held until the whole batch is done. Calls already in
 * `done` (from before an interrupt) are skipped.
 */
export async function runToolBatch(env: ToolBatchEnv, calls: ToolCall[], done: Record<string, DoneCall>): Promise<ToolBatchResult> {
  const result: ToolBatchResult = { done: { ...done }, interrupts: [] };
  for (const c of calls) if (env.returnDirectly.has(c.function.name)) result.returnDirectlyId = c.id;

  await Promise.all(
    calls
      .filter((c) => !(c.id in done))
      .map(async (call) => {
        const address: AddressSegment[] = [...env.address, { type: 'tool', id: call.function.name, subId: call.id }];
        const resume = env.resume?.take(address) ?? NO_RESUME;
        let r: ToolCallResult;
        try {
          r = await env.handler({ call, resume, address: addressToString(address) });
        } catch (e) {
          // Every call settles on cancel, so the calls that did finish are kept and not run again.
          if (!env.signal.aborted) throw e;
          result.cancelled = true;
          return;
        }
        if (r.kind === 'interrupt') {
          result.interrupts.push(makeSignal(address, r.info, r.state, r.subs ?? [], resume.id));
          return;
        }
        const entry: DoneCall = { content: r.content, isError: r.isError };
        if (r.action) entry.action = r.action;
        if (r.edited) entry.editedArguments = JSON.stringify(r.arguments ?? null);
        if (r.replayed) entry.replayed = true;
        if (r.structured !== undefined) entry.structured = r.structured;
        if (r.subRun) entry.subRun = r.subRun;
        result.done[call.id] = entry;
        if (call.id !== result.returnDirectlyId) env.emit(toolEvent(call, entry, env.agentName));
      }),
  );
  return result;
}

export function toolEvent(call: ToolCall, entry: DoneCall, agentName: string): AgentEvent {
  const e = messageEvent(resultMessage(call, entry));
  e.agentName = agentName;
  if (entry.isError && e.output?.message?.message) e.output.message.message.isError = true;
  if (entry.action) e.action = entry.action;
  if (entry.replayed) e.replayed = true;
  return e;
}

/**
 * A call's result message. When a person edited the arguments before approving, the result says
 * what ran (the assistant's message still shows what the model asked for).
 */
function resultMessage(call: ToolCall, entry: DoneCall): Message {
  return { ...resultText(call, entry), ...(entry.structured !== undefined ? { structured: entry.structured } : {}), ...(entry.subRun ? { subRun: entry.subRun } : {}) };
}

function resultText(call: ToolCall, entry: DoneCall): Message {
  if (!entry.editedArguments) return toolMessage(entry.content, call.id, call.function.name);
  const note = `[The user edited this call before approving it; it ran with ${entry.editedArguments}]`;
  return { ...toolMessage(`${note}\n${entry.content}`, call.id, call.function.name), editedArguments: entry.editedArguments };
}

/** Tool messages for the model, in call order. */
export function toolMessages(calls: ToolCall[], done: Record<string, DoneCall>): Message[] {
  return calls.map((c) => {
    const m = resultMessage(c, done[c.id]);
    if (done[c.id].isError) m.isError = true;
    return m;
  });
}
