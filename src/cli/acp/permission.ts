import type { PermissionOption, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { describeInterrupt } from '../../core/conversation/describe-interrupt.js';

/** A waiting interrupt as adk describes it (kind, tool, call, arguments, plan, message). */
export type Waiting = ReturnType<typeof describeInterrupt>;
import { budgetFigure, suggestedLimit } from '../../core/agents/run-budget.js';
import { parsedArgs, textContent, toolDiff, toolKind, toolLocations, toolTitle } from './tool-call-view.js';

/** The option ids adk offers, and what each means for the waiting call. */
export type PermissionChoice = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

const APPROVAL_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow in this session', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject in this session', kind: 'reject_always' },
];

const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Accept the plan', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'Revise the plan', kind: 'reject_once' },
];

/** A reached budget: raise it (to twice its limit) and go on, or end the run here. */
function budgetOptions(b: { name: string; limit: number }): PermissionOption[] {
  return [
    { optionId: 'allow_once', name: `Raise ${b.name} to ${budgetFigure(b.name, suggestedLimit(b.name, b.limit))} and go on`, kind: 'allow_once' },
    { optionId: 'reject_once', name: 'Stop the run here', kind: 'reject_once' },
  ];
}

/** The permission request for an approval, a plan review or a reached budget: what the editor shows, and the choices. */
export async function permissionRequest(sessionId: string, p: Waiting, workspace: string): Promise<RequestPermissionRequest> {
  if (p.kind === 'budget' && p.budget) {
    const { name, spent, limit } = p.budget;
    const title = `Budget reached: ${name} (${budgetFigure(name, spent)} spent of ${budgetFigure(name, limit)})`;
    return { sessionId, toolCall: { toolCallId: p.id, title, kind: 'other', status: 'pending', content: [textContent(p.message)] }, options: budgetOptions(p.budget) };
  }
  if (p.kind === 'plan_review') {
    const plan = Array.isArray(p.plan) ? p.plan.map((step, i) => `${i + 1}. ${String(step)}`).join('\n') : typeof p.plan === 'string' ? p.plan : p.plan ? JSON.stringify(p.plan, null, 2) : '';
    const text = [p.message, plan].filter(Boolean).join('\n\n');
    return { sessionId, toolCall: { toolCallId: callIdOf(p), title: 'Review the plan', kind: 'think', status: 'pending', content: [textContent(text)] }, options: PLAN_OPTIONS };
  }
  const tool = p.tool ?? 'tool';
  const args = parsedArgs(p.arguments);
  const diff = await toolDiff(tool, args, workspace).catch(() => undefined);
  return {
    sessionId,
    toolCall: {
      toolCallId: callIdOf(p),
      title: toolTitle(tool, args),
      kind: toolKind(tool),
      status: 'pending',
      locations: toolLocations(tool, args, workspace),
      rawInput: args,
      content: [...(diff ? [diff] : []), ...(p.message ? [textContent(p.message)] : [])],
    },
    // A tool that asks every time here (shell without its sandbox): "always allow" would not hold.
    options: p.alwaysAsks ? APPROVAL_OPTIONS.filter((o) => o.kind !== 'allow_always') : APPROVAL_OPTIONS,
  };
}

/** The tool call the interrupt stopped (the editor already shows it), from its address `…;tool:<name>:<callId>`. */
function callIdOf(p: Waiting): string {
  return p.callId ?? /;tool:[^:;]+:([^;]+)$/.exec(p.address)?.[1] ?? p.id;
}

/** The resume data for the person's choice (see ApprovalDecision and the plan review's answer). */
export function answerFor(p: Waiting, choice: PermissionChoice): unknown {
  const allow = choice === 'allow_once' || choice === 'allow_always';
  if (p.kind === 'plan_review') return allow ? { accept: true } : { accept: false, feedback: 'Please revise the plan.' };
  if (p.kind === 'budget' && p.budget) return allow ? { raise: { [p.budget.name]: suggestedLimit(p.budget.name, p.budget.limit) } } : { stop: true };
  return allow ? { approved: true } : { approved: false, reason: choice === 'reject_always' ? 'The user rejects every call of this tool in this session.' : undefined };
}

export const isChoice = (v: string): v is PermissionChoice => ['allow_once', 'allow_always', 'reject_once', 'reject_always'].includes(v);
