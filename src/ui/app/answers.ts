import { describeCall } from '../../core/middlewares/describe-call.js';
import type { ApprovalChoice } from '../components/ApprovalPrompt.js';
import type { PlanDecision } from '../components/PlanReviewPrompt.js';
import type { BudgetDecision } from '../components/BudgetPrompt.js';
import { budgetFigure } from '../../core/agents/run-budget.js';
import type { PendingInterrupt } from '../state/transcript.js';

/** What a prompt returns, per kind of interrupt. */
export type PromptAnswer =
  | { kind: 'approval'; choice: ApprovalChoice }
  | { kind: 'input'; text: string }
  | { kind: 'plan_review'; decision: PlanDecision }
  | { kind: 'budget'; name: string; decision: BudgetDecision };

/** The resume data the runtime expects for an answer (`always` stays in the app). */
export function resumeData(answer: PromptAnswer): unknown {
  switch (answer.kind) {
    case 'approval': {
      const c = answer.choice;
      if (!c.approved) return c.reason ? { approved: false, reason: c.reason } : { approved: false };
      if ('arguments' in c) return { approved: true, arguments: c.arguments };
      return { approved: true };
    }
    case 'input':
      return answer.text;
    case 'plan_review':
      return answer.decision;
    case 'budget':
      return 'raise' in answer.decision ? { raise: { [answer.name]: answer.decision.raise } } : { stop: true };
  }
}

/** A line for the transcript recording what the person decided. */
export function answerNote(p: PendingInterrupt, answer: PromptAnswer): string {
  // Name the call, not just the tool: several calls of one tool may wait at once.
  const tool = describeCall(p.info.tool ?? 'tool', p.info.arguments);
  switch (answer.kind) {
    case 'approval': {
      const c = answer.choice;
      if (!c.approved) return `⊘ rejected ${tool}${c.reason ? `: ${c.reason}` : ''}`;
      if ('always' in c) return `✓ approved ${tool} for the rest of the session`;
      if ('remember' in c) return `✓ approved ${tool}; not asked again for calls like it in this folder (/permissions)`;
      if ('arguments' in c) return `✓ approved ${tool} with edited arguments`;
      return `✓ approved ${tool}`;
    }
    case 'input':
      return `↳ answered: ${answer.text || '(empty)'}`;
    case 'plan_review':
      return answer.decision.accept ? '✓ plan accepted' : `↳ plan feedback: ${answer.decision.feedback}`;
    case 'budget':
      return 'raise' in answer.decision ? `↑ raised ${answer.name} to ${budgetFigure(answer.name, answer.decision.raise)}` : `⊘ stopped at ${answer.name}`;
  }
}

/**
 * An approval of a tool that asks before every call here (shell without its sandbox): the core says
 * so on the interrupt, and the host's `alwaysAsks` says so for one an earlier process left. A grant
 * or a rule never answers it, and "always allow" is not offered.
 */
export function mustAsk(p: PendingInterrupt, alwaysAsks?: (tool: string) => boolean): boolean {
  return p.info.kind === 'approval' && (p.info.alwaysAsks === true || !!(p.info.tool && alwaysAsks?.(p.info.tool)));
}

/** An approval the person already granted for the whole session is answered without asking (never one that must ask). */
export function autoAnswer(p: PendingInterrupt, alwaysApproved: ReadonlySet<string>, alwaysAsks?: (tool: string) => boolean): PromptAnswer | undefined {
  if (p.info.kind === 'approval' && !p.info.mayHaveRun && p.info.tool && alwaysApproved.has(p.info.tool) && !mustAsk(p, alwaysAsks)) return { kind: 'approval', choice: { approved: true } };
  return undefined;
}
