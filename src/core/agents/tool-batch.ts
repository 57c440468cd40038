import type { AddressSegment, InterruptDetails, InterruptSignal, ResumeContext, ResumeInfo } from '../interrupt.js';
import { addressToString, makeSignal } from '../interrupt.js';
import { toolMessage, type Message, type ToolCall } from '../schema/message.js';
import { executeToolCall, type ToolCallEnv, type ToolCallResult } from '../tools/execute.js';
import type { Tool } from '../tools/tool.js';
import { describeCall } from './describe-call.js';
import type { ApprovalPolicy, SideEffectLedger } from './run-context.js';
import { messageEvent, type AgentAction, type AgentEvent } from './types.js';

/** A finished call, cached in the agent's state so a resumed batch never runs it again. */
export interface DoneCall {
  content: string;
  isError: boolean;
  action?: AgentAction;
}

export interface ToolBatchEnv extends Omit<ToolCallEnv, 'resume'> {
  tools: ReadonlyMap<string, Tool>;
  returnDirectly: ReadonlySet<string>;
  approval: ReadonlySet<string>;
  address: AddressSegment[];
  resume?: ResumeContext;
  approvalPolicy?: ApprovalPolicy;
  sideEffects?: SideEffectLedger;
}

export interface ToolBatchResult {
  done: Record<string, DoneCall>;
  interrupts: InterruptSignal[];
  /** The call whose result ends the agent's run (the last return-directly call in the batch). */
  returnDirectlyId?: string;
  /** The run was cancelled: some calls did not finish; `done` holds those that did. */
  cancelled?: boolean;
}

export type ApprovalDecision = { approved: true; arguments?: unknown } | { approved: false; reason?: string };

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
          r = await runOne(env, call, resume, addressToString(address));
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
        result.done[call.id] = entry;
        if (call.id !== result.returnDirectlyId) env.emit(toolEvent(call, entry, env.agentName));
      }),
  );
  return result;
}

async function runOne(env: ToolBatchEnv, call: ToolCall, resume: ResumeInfo, address: string): Promise<ToolCallResult> {
  const name = call.function.name;
  const callEnv: ToolCallEnv = { ...env, resume };
  if (!env.approval.has(name) || !env.tools.has(name)) return executeToolCall(call, env.tools, callEnv);
  // Approved in an earlier resume, then it interrupted on its own: that point is the tool's, not the approval's.
  const before = resume.wasInterrupted ? approvedBefore(resume.state) : undefined;
  if (before) return runApproved(env, call, { ...resume, state: before.state }, before.approved.arguments);
  const args = parsedArguments(call);
  // An approved call that started before a crash may have done its work: never re-run it unasked.
  const warned = resume.wasInterrupted && isWarned(resume.state);
  const mayHaveRun = warned || (resume.wasInterrupted && !!env.sideEffects?.started(address));
  // Approval fails closed: anything but a well-formed decision for this very call asks again.
  const decision = resume.isResumeTarget && resume.hasData ? asDecision(resume.data) : undefined;
  const ask = (): ToolCallResult => ({ kind: 'interrupt', info: approvalInfo(call, args, mayHaveRun), state: mayHaveRun ? WARNED : undefined });
  if (decision && !decision.approved) {
    const reason = decision.reason?.trim();
    return { kind: 'done', content: `The user rejected this ${name} call${reason ? `: ${reason}` : '.'}`, isError: true };
  }
  if (mayHaveRun && !warned) return ask();
  if (!decision) {
    const granted = !mayHaveRun && env.approvalPolicy?.allows({ tool: name, arguments: args, agentName: env.agentName });
    return granted ? runApproved(env, call, NO_RESUME, undefined, resume.wasInterrupted ? address : undefined) : ask();
  }
  return runApproved(env, call, NO_RESUME, decision.arguments, resume.wasInterrupted ? address : undefined);
}

function parsedArguments(call: ToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments || '{}');
  } catch {
    return call.function.arguments; // shown raw
  }
}

/** What a person is asked: the call itself (its id and arguments), not just the tool's name. */
function approvalInfo(call: ToolCall, args: unknown, mayHaveRun: boolean): InterruptDetails {
  const name = call.function.name;
  const what = describeCall(name, args);
  const message = mayHaveRun
    ? `${what} may already have run: adk stopped after it started and before its result was saved. Run it again?`
    : `Allow ${what}?`;
  const info: InterruptDetails = { kind: 'approval', message, tool: name, arguments: args, callId: call.id };
  if (mayHaveRun) info.mayHaveRun = true;
  return info;
}

/** State of an approval asked again after a crash: the next approval is given knowingly and runs. */
const WARNED = { mayHaveRun: true } as const;

function isWarned(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { mayHaveRun?: unknown }).mayHaveRun === true;
}

/** Kept in the state of an approved call that interrupts on its own, so approval is not asked again. */
interface ApprovedState {
  approved: { arguments?: unknown };
  state?: unknown;
}

function approvedBefore(state: unknown): ApprovedState | undefined {
  const s = state as ApprovedState | undefined;
  return s && typeof s === 'object' && s.approved && typeof s.approved === 'object' ? s : undefined;
}

/** `ledgerAddress`: the call was waiting at a checkpointed point, so its start is recorded first. */
async function runApproved(env: ToolBatchEnv, call: ToolCall, resume: ResumeInfo, args: unknown, ledgerAddress?: string): Promise<ToolCallResult> {
  if (ledgerAddress) await env.sideEffects?.markStarted(ledgerAddress);
  const r = await executeToolCall(call, env.tools, { ...env, resume }, args);
  if (r.kind !== 'interrupt') return r;
  const approved: ApprovedState = { approved: args === undefined ? {} : { arguments: args }, state: r.state };
  return { ...r, state: approved };
}

function asDecision(data: unknown): ApprovalDecision | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (d.approved === true) return d.arguments === undefined ? { approved: true } : { approved: true, arguments: editedArguments(d.arguments) };
  if (d.approved === false) return { approved: false, reason: typeof d.reason === 'string' ? d.reason : undefined };
  return undefined;
}

/** Edited arguments may come as the JSON text a person typed; invalid text reaches the tool's validation as is. */
function editedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export function toolEvent(call: ToolCall, entry: DoneCall, agentName: string): AgentEvent {
  const e = messageEvent(toolMessage(entry.content, call.id, call.function.name));
  e.agentName = agentName;
  if (entry.isError && e.output?.message?.message) e.output.message.message.isError = true;
  if (entry.action) e.action = entry.action;
  return e;
}

/** Tool messages for the model, in call order. */
export function toolMessages(calls: ToolCall[], done: Record<string, DoneCall>): Message[] {
  return calls.map((c) => {
    const m = toolMessage(done[c.id].content, c.id, c.function.name);
    if (done[c.id].isError) m.isError = true;
    return m;
  });
}
