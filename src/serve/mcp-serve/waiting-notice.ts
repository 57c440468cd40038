import { suggestedLimit } from '../../core/agents/run-budget.js';
import type { Waiting } from './interrupt-form.js';

/**
 * What a saved, interrupted session waits for, and the exact commands that answer it in a
 * terminal (the client could not ask the person itself). `command` is the main one: the approval
 * (`adk resume <id> --approve`), else the answer to a question, else raw resume data.
 */
export function waitingNotice(id: string, points: Waiting[]): { text: string; command: string } {
  const approvals = points.filter((p) => p.kind === 'approval' || p.kind === 'plan_review');
  const questions = points.filter((p) => p.kind === 'input');
  const budgets = points.filter((p) => p.kind === 'budget');
  const custom = points.filter((p) => !['approval', 'plan_review', 'input', 'budget'].includes(p.kind));
  const lines = [`The adk team is waiting for a person (session ${id} is saved):`];
  for (const p of points) lines.push(`- ${what(p)}`);
  if (approvals.length) lines.push(`Approve in a terminal: adk resume ${id} --approve  (or refuse: adk resume ${id} --reject --reason "…"), then call this tool again with session "${id}" to continue.`);
  if (questions.length) lines.push(`Answer the question: call this tool again with session "${id}" and the answer as the task (or run: adk resume ${id} --input "…").`);
  const raise = budgets.length ? `adk resume ${id} --raise ${budgets[0]!.budget?.name ?? 'max_model_calls'}=${budgets[0]!.budget ? suggestedLimit(budgets[0]!.budget.name, budgets[0]!.budget.limit) : '…'}` : '';
  if (budgets.length) lines.push(`Raise the budget in a terminal: ${raise}, then call this tool again with session "${id}" to continue.`);
  if (custom.length) lines.push(`Answer it in a terminal: adk resume ${id} --targets '{"${custom[0]!.id}": …}'.`);
  const command = approvals.length ? `adk resume ${id} --approve` : questions.length ? `adk resume ${id} --input "…"` : budgets.length ? raise : `adk resume ${id} --targets '{"${custom[0]?.id ?? '<id>'}": …}'`;
  return { text: lines.join('\n'), command };
}

function what(p: Waiting): string {
  if (p.kind === 'approval') return `approval to run ${p.tool ?? 'a tool'}${args(p.arguments)}`;
  if (p.kind === 'plan_review') return 'a review of its plan';
  if (p.kind === 'input') return `an answer to: ${p.message}`;
  if (p.kind === 'budget') return p.message || 'a budget was reached';
  return `data for interrupt ${p.id}${p.message ? ` (${p.message})` : ''}`;
}

function args(a: unknown): string {
  if (a === undefined) return '';
  let parsed = a;
  if (typeof a === 'string') {
    try {
      parsed = JSON.parse(a);
    } catch {
      return `: ${a}`;
    }
  }
  const command = (parsed as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? `: ${command}` : `: ${JSON.stringify(parsed)}`;
}
