import { budgetAnswer, InvalidAnswerError } from '../../../core/conversation/answers.js';
import type { PendingInterrupt } from '../../../core/store/session-record.js';

const YES = new Set(['approve', 'approved', 'accept', 'accepted', 'yes', 'y', 'ok', 'allow']);
const NO = new Set(['reject', 'rejected', 'deny', 'denied', 'no', 'n', 'ignore']);

/**
 * `command: {resume}` as adk's resume data by interrupt id. `resume` is one answer (when one
 * interrupt waits) or `{[interruptId]: answer}` (LangGraph's map form). An answer may be adk's own
 * (`{approved, reason?, arguments?}`, `{accept, feedback?}`, text), a yes/no (`true`, "approve",
 * "reject"), agent-inbox's `{type: accept|edit|response|ignore, args}` (also in a one-item list), or
 * LangChain v1's `{decisions: [{type: approve|edit|reject, …}]}` (agent-chat-ui).
 */
export function resumeTargets(pending: readonly PendingInterrupt[], resume: unknown): Record<string, unknown> {
  if (!pending.length) throw new InvalidAnswerError('the thread waits on no interrupt: send input, not command.resume');
  const byId = idMap(pending, resume);
  if (byId) return Object.fromEntries(Object.entries(byId).map(([id, v]) => [id, answer(pending.find((p) => p.id === id)!, v)]));
  if (pending.length > 1) {
    throw new InvalidAnswerError(`${pending.length} interrupts wait: resume with {[interruptId]: answer}; ids: ${pending.map((p) => `${p.id} (${p.kind})`).join(', ')}`);
  }
  return { [pending[0]!.id]: answer(pending[0]!, resume) };
}

/** The resume value as `{id: answer}` when every key is a pending interrupt's id. */
function idMap(pending: readonly PendingInterrupt[], resume: unknown): Record<string, unknown> | undefined {
  if (!resume || typeof resume !== 'object' || Array.isArray(resume)) return undefined;
  const keys = Object.keys(resume);
  const ids = new Set(pending.map((p) => p.id));
  return keys.length > 0 && keys.every((k) => ids.has(k)) ? (resume as Record<string, unknown>) : undefined;
}

type Inbox = { type: string; args?: unknown };

function inbox(v: unknown): Inbox | undefined {
  const x = Array.isArray(v) && v.length === 1 ? v[0] : v;
  return x && typeof x === 'object' && typeof (x as Inbox).type === 'string' ? (x as Inbox) : undefined;
}

/** A yes/no in any of the usual spellings; undefined when `v` is neither. */
function yesNo(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  return YES.has(s) ? true : NO.has(s) ? false : undefined;
}

function answer(p: PendingInterrupt, v: unknown): unknown {
  const box = inbox(v);
  switch (p.kind) {
    case 'approval': {
      if (v && typeof v === 'object' && 'approved' in v) return v;
      const decision = decisionOf(v);
      if (decision) return decision;
      if (box) {
        if (box.type === 'accept') return { approved: true };
        // agent-inbox's edit: `args` is the ActionRequest `{action, args}` with the edited arguments.
        if (box.type === 'edit') return { approved: true, arguments: editedArgs(box.args) };
        if (box.type === 'response') return { approved: false, reason: typeof box.args === 'string' ? box.args : JSON.stringify(box.args) };
        if (box.type === 'ignore' || box.type === 'reject') return { approved: false, ...(typeof box.args === 'string' ? { reason: box.args } : {}) };
      }
      const yn = yesNo(v);
      if (yn !== undefined) return yn ? { approved: true } : { approved: false };
      // Any other text is a refusal the model is told (agent-inbox's "respond").
      if (typeof v === 'string') return { approved: false, reason: v };
      throw new InvalidAnswerError(`interrupt ${p.id} asks to approve ${p.tool ?? 'a call'}: resume with true/false, "approve"/"reject", {approved, reason?, arguments?} or {type: accept|edit|response|ignore}`);
    }
    case 'plan_review': {
      if (v && typeof v === 'object' && 'accept' in v) return v;
      if (box) return box.type === 'accept' ? { accept: true } : { accept: false, feedback: typeof box.args === 'string' ? box.args : 'Please revise the plan.' };
      const yn = yesNo(v);
      if (yn !== undefined) return yn ? { accept: true } : { accept: false, feedback: 'Please revise the plan.' };
      if (typeof v === 'string') return { accept: false, feedback: v };
      throw new InvalidAnswerError(`interrupt ${p.id} reviews a plan: resume with true, "accept", feedback text, or {accept, feedback?}`);
    }
    case 'input': {
      if (typeof v === 'string') return v;
      if (box && typeof box.args === 'string') return box.args;
      if (v && typeof v === 'object') for (const k of ['answer', 'input', 'text', 'response']) if (typeof (v as Record<string, unknown>)[k] === 'string') return (v as Record<string, unknown>)[k];
      throw new InvalidAnswerError(`interrupt ${p.id} asks a question: resume with the answer's text`);
    }
    case 'budget':
      // A reached budget: {raise}, {stop}, a number (the new limit), yes (twice the limit) or stop; checked here, not by the run.
      return budgetAnswer(p, v);
    default:
      // A custom or composite interrupt takes whatever its tool asked for.
      return v;
  }
}

/** LangChain v1's human-in-the-loop answer: `{decisions: [one decision]}`, as adk's approval answer. */
function decisionOf(v: unknown): unknown {
  const list = v && typeof v === 'object' ? (v as { decisions?: unknown }).decisions : undefined;
  if (!Array.isArray(list) || list.length !== 1) return undefined;
  const d = list[0] as { type?: unknown; message?: unknown; edited_action?: { args?: unknown } };
  if (d?.type === 'approve') return { approved: true };
  if (d?.type === 'reject') return { approved: false, ...(typeof d.message === 'string' && d.message ? { reason: d.message } : {}) };
  if (d?.type === 'edit' && d.edited_action?.args && typeof d.edited_action.args === 'object') return { approved: true, arguments: d.edited_action.args };
  return undefined;
}

function editedArgs(args: unknown): unknown {
  if (args && typeof args === 'object' && 'args' in args) return (args as { args: unknown }).args;
  return args;
}
