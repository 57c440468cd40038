import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { describeInterrupt } from '../../core/conversation/describe-interrupt.js';

/** A waiting interrupt as adk describes it (kind, tool, call, arguments, plan, message). */
export type Waiting = ReturnType<typeof describeInterrupt>;

/** The answer a person gave in the form: resume data for the interrupt, or none (dismissed: it keeps waiting). */
export type FormAnswer = { data: unknown } | { later: true };

/**
 * The elicitation form for a waiting interrupt, when a form can answer it: an approval or a plan
 * review as approve/reject with a reason, an ask_user question as a text field. Anything else
 * (custom interrupts) has no form: it waits for `adk resume --targets`.
 */
export function interruptForm(w: Waiting, team: string): ElicitRequestFormParams | undefined {
  if (w.kind === 'approval') {
    return {
      mode: 'form',
      message: `The adk team '${team}' wants to run ${w.tool ?? 'a tool'}${callText(w)}${w.message ? `\n\n${w.message}` : ''}`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', title: 'Decision', enum: ['approve', 'reject'], description: 'approve runs the call; reject tells the agent it was refused' },
          reason: { type: 'string', title: 'Reason (when rejecting)', description: 'Told to the agent with the rejection' },
        },
        required: ['decision'],
      },
    };
  }
  if (w.kind === 'plan_review') {
    return {
      mode: 'form',
      message: `The adk team '${team}' asks you to review its plan:\n\n${planText(w.plan)}${w.message ? `\n\n${w.message}` : ''}`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', title: 'Decision', enum: ['approve', 'reject'], description: 'approve runs the plan; reject asks for another one' },
          reason: { type: 'string', title: 'What to change (when rejecting)' },
        },
        required: ['decision'],
      },
    };
  }
  if (w.kind === 'input') {
    return {
      mode: 'form',
      message: w.message || `The adk team '${team}' has a question.`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Your answer' } }, required: ['answer'] },
    };
  }
  return undefined;
}

/**
 * The resume data for the person's reply (the same shapes `adk resume --approve/--reject/--input`
 * gives). Declining is a rejection; cancelling (the form dismissed) leaves the interrupt waiting.
 */
export function formAnswer(w: Waiting, reply: ElicitResult, client: string): FormAnswer {
  if (reply.action === 'cancel') return { later: true };
  const content = (reply.content ?? {}) as Record<string, unknown>;
  const reason = typeof content.reason === 'string' && content.reason.trim() ? content.reason.trim() : undefined;
  const approved = reply.action === 'accept' && content.decision === 'approve';
  if (w.kind === 'input') return { data: reply.action === 'accept' ? String(content.answer ?? '') : `The user declined to answer in ${client}.` };
  const refusal = reason ?? (reply.action === 'decline' ? `The user declined in ${client}.` : undefined);
  if (w.kind === 'plan_review') return { data: approved ? { accept: true } : { accept: false, feedback: refusal ?? 'Please revise the plan.' } };
  return { data: approved ? { approved: true } : { approved: false, reason: refusal } };
}

function callText(w: Waiting): string {
  const args = w.arguments;
  if (args === undefined) return '';
  const parsed = typeof args === 'string' ? safeParse(args) : args;
  const command = (parsed as { command?: unknown } | undefined)?.command;
  if (typeof command === 'string') return `:\n\n    ${command}`;
  return `:\n\n${JSON.stringify(parsed, null, 2)}`;
}

function planText(plan: unknown): string {
  if (Array.isArray(plan)) return plan.map((step, i) => `${i + 1}. ${typeof step === 'string' ? step : JSON.stringify(step)}`).join('\n');
  if (typeof plan === 'string') return plan;
  return plan ? JSON.stringify(plan, null, 2) : '(no plan given)';
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}
