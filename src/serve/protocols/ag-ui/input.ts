import * as z from 'zod';
import type { PendingInterrupt } from '../../../core/store/session-record.js';
import { budgetAnswer } from '../../../core/conversation/answers.js';

/**
 * AG-UI's `RunAgentInput` (the fields adk reads; others are kept and ignored): `threadId` names the
 * adk session, the last user message is the turn, `resume` answers the interrupts the last run ended on.
 */
export const RunAgentInputBody = z.looseObject({
  threadId: z.string().min(1).max(200),
  runId: z.string().min(1).max(200),
  state: z.unknown().optional(),
  messages: z.array(z.looseObject({ id: z.string().optional(), role: z.string(), content: z.unknown().optional() })).default([]),
  tools: z.array(z.unknown()).default([]),
  context: z.array(z.unknown()).default([]),
  forwardedProps: z.unknown().optional(),
  resume: z
    .array(z.looseObject({ interruptId: z.string().min(1), status: z.enum(['resolved', 'cancelled']), payload: z.unknown().optional() }))
    .optional(),
});
export type RunAgentInputBody = z.infer<typeof RunAgentInputBody>;
export type ResumeEntryBody = NonNullable<RunAgentInputBody['resume']>[number];

/** The text of the last user message (its text parts joined when it has parts). */
export function lastUserText(messages: RunAgentInputBody['messages']): string {
  const m = messages.findLast((x) => x.role === 'user');
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  if (!Array.isArray(m.content)) return '';
  return m.content.map((p: unknown) => (p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' ? String((p as { text?: unknown }).text ?? '') : '')).join('');
}

/**
 * Resume entries → adk's resume targets. A payload in adk's own shape passes as it is; the short
 * forms a front end sends are read by the interrupt's kind: `true`/`false` approve or reject (accept
 * or revise a plan), a string answers a question (or is a rejection's reason); `cancelled` rejects.
 */
export function resumeTargets(pending: readonly PendingInterrupt[], entries: readonly ResumeEntryBody[]): Record<string, unknown> {
  const targets: Record<string, unknown> = {};
  for (const e of entries) {
    const p = pending.find((x) => x.id === e.interruptId);
    if (!p) throw new ResumeError(`no pending interrupt ${e.interruptId} (pending: ${pending.map((x) => x.id).join(', ') || 'none'})`);
    targets[p.id] = answer(p, e);
  }
  return targets;
}

function answer(p: PendingInterrupt, e: ResumeEntryBody): unknown {
  const v = e.payload;
  const cancelled = e.status === 'cancelled';
  if (p.kind === 'approval') {
    if (cancelled) return { approved: false, reason: 'cancelled by the person' };
    if (typeof v === 'boolean') return { approved: v };
    if (typeof v === 'string') return { approved: false, reason: v };
    return v ?? { approved: true };
  }
  if (p.kind === 'plan_review') {
    if (cancelled) return { accept: false, feedback: 'cancelled by the person' };
    if (typeof v === 'boolean') return { accept: v };
    if (typeof v === 'string') return { accept: false, feedback: v };
    return v ?? { accept: true };
  }
  if (p.kind === 'budget') {
    if (cancelled) return { stop: true };
    try {
      return budgetAnswer(p, v ?? 'yes');
    } catch (e) {
      throw new ResumeError((e as Error).message);
    }
  }
  if (cancelled) return '(the person declined to answer)';
  return v;
}

/** A resume entry names no waiting interrupt (HTTP 400). */
export class ResumeError extends Error {}
