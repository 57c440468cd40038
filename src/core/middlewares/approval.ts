import type { InterruptDetails, ResumeInfo } from '../interrupt.js';
import type { ToolCall } from '../schema/message.js';
import type { ToolCallResult } from '../tools/execute.js';
import { describeCall } from './describe-call.js';
import type { AgentMiddleware, MiddlewareContext, ToolCallHandler, ToolCallRequest } from '../agents/middleware.js';
import { containsSecret } from '../store/redact.js';
import { invalidCallResult } from './invalid-call.js';

/**
 * The resume data that answers an approval interrupt: approve (optionally with edited arguments,
 * an object or JSON text) or reject with a reason the model is told. Anything else asks again.
 */
export type ApprovalDecision = { approved: true; arguments?: unknown } | { approved: false; reason?: string };

const NO_RESUME: ResumeInfo = { wasInterrupted: false, isResumeTarget: false, hasData: false };

/**
 * Approval gating as a middleware: a call of a listed tool interrupts the run and runs only once a
 * person approves it (possibly with edited arguments), or a grant allows it ahead of time. It is the
 * outermost layer, so no other middleware sees a call nobody approved.
 */
export function approvalMiddleware(tools: Iterable<string>): AgentMiddleware {
  const gated = new Set(tools);
  return {
    name: 'approval',
    wrapToolCall: (next, ctx) => (req) => {
      // A PreToolUse hook's `ask` makes any tool ask this once (Claude Code's permissionDecision).
      const isGated = (gated.has(req.call.function.name) || req.permission === 'ask') && ctx.tools.has(req.call.function.name);
      // A person's rejection of this very call stands, with its reason, even if the mode now refuses it.
      const rejected = isGated && req.resume.isResumeTarget && req.resume.hasData && asDecision(req.resume.data)?.approved === false;
      const refused = rejected ? undefined : refusal(ctx, req);
      if (refused) return Promise.resolve(refused);
      return isGated ? gate(next, ctx, req) : next(req);
    },
  };
}

/** The run's policy refuses this call outright (a read-only mode): its reason is the call's result. */
function refusal(ctx: MiddlewareContext, req: ToolCallRequest): ToolCallResult | undefined {
  const policy = ctx.run.approvalPolicy;
  if (!policy?.refuses) return undefined;
  const name = req.call.function.name;
  const reason = policy.refuses({ tool: name, arguments: parsedArguments(req.call), agentName: ctx.agentName, readOnly: ctx.tools.get(name)?.readOnly === true });
  return reason ? { kind: 'done', content: reason, isError: true } : undefined;
}

async function gate(next: ToolCallHandler, ctx: MiddlewareContext, req: ToolCallRequest): Promise<ToolCallResult> {
  const { call, resume, address } = req;
  const name = call.function.name;
  // An earlier attempt of this turn (a worker that died later) finished the call: its result
  // stands; asking again would let it run twice.
  const finished = await ctx.run.journal?.finished(address, ctx.run.session.values);
  if (finished) return finished;
  // A fresh call that cannot run is answered with its validation error, never shown for approval.
  if (!resume.wasInterrupted) {
    const invalid = invalidCallResult(ctx.tools.get(name), call);
    if (invalid) return invalid;
    // Nor one that would fail as it stands (the model is told why, nobody is asked).
    const why = await ctx.tools.get(name)?.check?.(parsedArguments(call), { signal: ctx.signal }).catch(() => undefined);
    if (why) return { kind: 'done', content: why, isError: true };
  }
  // Approved in an earlier resume, then it interrupted on its own: that point is the tool's, not the approval's.
  const before = resume.wasInterrupted ? approvedBefore(resume.state) : undefined;
  if (before) return runApproved(next, ctx, req, { ...resume, state: before.state }, before.approved.arguments);
  const args = parsedArguments(call);
  // An approved call that started before a crash may have done its work: never re-run it unasked.
  const warned = resume.wasInterrupted && isWarned(resume.state);
  const mayHaveRun = warned || (resume.wasInterrupted && !!ctx.run.sideEffects?.started(address));
  // Approval fails closed: anything but a well-formed decision for this very call asks again.
  const decision = resume.isResumeTarget && resume.hasData ? asDecision(resume.data) : undefined;
  // Its arguments held a secret when it was asked (noted in the interrupt's state, which survives
  // the store), and hold none now: this is the checkpoint's redacted copy, not what was approved.
  const secrets = ctx.run.secrets?.() ?? [];
  const holdsSecret = secrets.length > 0 && containsSecret(call.function.arguments, secrets);
  const heldSecret = holdsSecret || (resume.wasInterrupted && heldSecretBefore(resume.state));
  const secretLost = heldSecret && !holdsSecret;
  // What the policy answers may wait on something started with the run (the sandbox probe).
  await ctx.run.approvalPolicy?.ready?.().catch(() => {});
  // Said as data on the interrupt, so no face answers it from a grant the policy overrules.
  const alwaysAsks = !!ctx.run.approvalPolicy?.alwaysAsks?.({ tool: name, arguments: args, agentName: ctx.agentName });
  const ask = async (): Promise<ToolCallResult> => ({
    kind: 'interrupt',
    info: await withPreview(approvalInfo(call, args, mayHaveRun, alwaysAsks), ctx, args),
    state: mayHaveRun || heldSecret ? { ...(mayHaveRun ? WARNED : {}), ...(heldSecret ? HELD_SECRET : {}) } : undefined,
  });
  if (decision && !decision.approved) {
    const reason = decision.reason?.trim();
    return { kind: 'done', content: `The user rejected this ${name} call${reason ? `: ${reason}` : '.'}`, isError: true };
  }
  if (mayHaveRun && !warned) return ask();
  const ledger = resume.wasInterrupted ? address : undefined;
  if (!decision) {
    const granted = !mayHaveRun && runsUnasked(ctx, req, args);
    if (!granted) return ask();
    return secretLost ? notRunSecretLost(name) : runApproved(next, ctx, req, NO_RESUME, undefined, ledger);
  }
  // A person's edit is what they approved, whatever the stored copy lost.
  if (secretLost && decision.arguments === undefined) return notRunSecretLost(name);
  return runApproved(next, ctx, req, NO_RESUME, decision.arguments, ledger);
}

/**
 * Whether a call may run without asking. A PreToolUse hook decides first, as in Claude Code: its
 * `ask` always asks (whatever the grants and the mode), its `allow` runs the call unasked, except a
 * tool that must always ask (the person's deny rules and a read-only mode were applied before, in
 * `refusal`, and win over a hook too). Otherwise the run's policy: the mode, grants and allow rules.
 */
function runsUnasked(ctx: MiddlewareContext, req: ToolCallRequest, args: unknown): boolean {
  const policy = ctx.run.approvalPolicy;
  const call = { tool: req.call.function.name, arguments: args, agentName: ctx.agentName };
  if (req.permission === 'ask') return false;
  if (req.permission === 'allow') return !policy?.alwaysAsks?.(call);
  return !!policy?.allows(call);
}

/**
 * Secrets are never stored, so a call asked in one process and approved in another (`adk run`, then
 * `adk resume --approve`) has `[REDACTED]` where its arguments held a secret. Running that would run
 * something the person did not approve (and silently differently), and there is no honest way to get
 * the value back: the store must not keep it, even encrypted next to its key. So the call is refused,
 * and the model and the person are told why; approved while adk still waits (the REPL, `adk serve`),
 * the arguments are still in memory and the call runs as shown (see KeyValueCheckpointStore).
 */
function notRunSecretLost(name: string): ToolCallResult {
  return {
    kind: 'done',
    isError: true,
    content:
      `This ${name} call was not run: its arguments held a secret, which adk does not store (the saved call has [REDACTED] in its place), ` +
      'so running it after a resume would not run what was approved. Make the call again if it is still needed; it can be approved while the run waits (adk chat), not across adk resume.',
  };
}

function parsedArguments(call: ToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments || '{}');
  } catch {
    return call.function.arguments; // shown raw
  }
}

/** What a person is asked: the call itself (its id and arguments), not just the tool's name. */
function approvalInfo(call: ToolCall, args: unknown, mayHaveRun: boolean, alwaysAsks: boolean): InterruptDetails {
  const name = call.function.name;
  const what = describeCall(name, args);
  const message = mayHaveRun
    ? `${what} may already have run: adk stopped after it started and before its result was saved. Run it again?`
    : `Allow ${what}?`;
  const info: InterruptDetails = { kind: 'approval', message, tool: name, arguments: args, callId: call.id };
  if (mayHaveRun) info.mayHaveRun = true;
  if (alwaysAsks) info.alwaysAsks = true;
  return info;
}

/** Adds the tool's preview of the call (a diff of what it would write), when it has one. */
async function withPreview(info: InterruptDetails, ctx: MiddlewareContext, args: unknown): Promise<InterruptDetails> {
  const tool = ctx.tools.get(info.tool ?? '');
  if (!tool?.preview || !args || typeof args !== 'object') return info;
  try {
    const diff = await tool.preview(args, { signal: ctx.signal });
    return diff ? { ...info, diff } : info;
  } catch {
    return info;
  }
}

/** State of an approval asked again after a crash: the next approval is given knowingly and runs. */
const WARNED = { mayHaveRun: true } as const;

/** State of an approval whose call's arguments held a secret when it was asked. */
const HELD_SECRET = { heldSecret: true } as const;

function heldSecretBefore(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { heldSecret?: unknown }).heldSecret === true;
}

function isWarned(state: unknown): boolean {
  return !!state && typeof state === 'object' && (state as { mayHaveRun?: unknown }).mayHaveRun === true;
}

/** Kept in the state of an approved call that interrupts on its own, so approval is not asked again. */
interface ApprovedState {
  approved: { arguments?: unknown };
  state?: unknown | undefined;
}

function approvedBefore(state: unknown): ApprovedState | undefined {
  const s = state as ApprovedState | undefined;
  return s && typeof s === 'object' && s.approved && typeof s.approved === 'object' ? s : undefined;
}

/** `ledgerAddress`: the call was waiting at a checkpointed point, so its start is recorded first. */
async function runApproved(
  next: ToolCallHandler,
  ctx: MiddlewareContext,
  req: ToolCallRequest,
  resume: ResumeInfo,
  args: unknown,
  ledgerAddress?: string,
): Promise<ToolCallResult> {
  if (ledgerAddress) await ctx.run.sideEffects?.markStarted(ledgerAddress);
  const r = await next({ ...req, resume, arguments: args ?? req.arguments });
  // A person's edit is part of what ran: the history says so next to the result.
  if (r.kind === 'done') return args === undefined || sameJson(args, parsedArguments(req.call)) ? r : { ...r, arguments: r.arguments ?? args, edited: true };
  const approved: ApprovedState = { approved: args === undefined ? {} : { arguments: args }, state: r.state };
  return { ...r, state: approved };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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
