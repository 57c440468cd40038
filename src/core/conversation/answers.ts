import type { PendingInterrupt } from '../store/session-record.js';
import { AdkError } from '../errors.js';
import { BUDGET_FIELDS, suggestedLimit } from '../agents/run-budget.js';

/** Answers that do not fit the waiting interrupts (an unknown id, bad `targets` JSON). */
export class InvalidAnswerError extends AdkError {
  constructor(message: string) {
    super('invalid_answer', message);
  }
}

export interface AnswerFlags {
  approve?: string[] | boolean;
  reject?: string[] | boolean;
  reason?: string;
  input?: string;
  /** JSON text, or the object itself: `{interruptId: data}`. */
  targets?: string | Record<string, unknown>;
  /** Approvals to approve whose tools are then allowed for the rest of the session (see `grantsFromFlags`). */
  always?: string[] | boolean;
  /**
   * New limits for the budgets a run stopped at: `{ max_cost: 5 }`, or the CLI's `['max_cost=5']`.
   * Every pending budget interrupt is answered with them; a run whose budget is still reached stops again.
   */
  raise?: string[] | Record<string, number>;
}

/** How a person answers waiting interrupts: `adk resume` flags, the HTTP API's `/interrupts` body. */
/**
 * Turns answers (`adk resume` flags, an `/interrupts` body) into resume data by interrupt id. `--approve`/`--reject` without ids
 * answer every pending approval (and plan review); `--input` answers every pending question.
 * Anything left unanswered interrupts again.
 */
export function targetsFromFlags(pending: PendingInterrupt[], flags: AnswerFlags): Record<string, unknown> {
  const targets: Record<string, unknown> = {};
  if (flags.targets) {
    let parsed: unknown = flags.targets;
    try {
      if (typeof flags.targets === 'string') parsed = JSON.parse(flags.targets);
    } catch (e) {
      throw new InvalidAnswerError(`--targets is not valid JSON: ${(e as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidAnswerError('--targets must be a JSON object of {interruptId: data}');
    // Keys may be id prefixes: the runner matches whole ids, so an unresolved prefix would answer nothing.
    for (const [key, data] of Object.entries(parsed)) {
      const p = findPending(pending, key);
      if (Object.hasOwn(targets, p.id)) throw new InvalidAnswerError(`--targets answers interrupt ${p.id} twice`);
      targets[p.id] = p.kind === 'budget' ? budgetAnswer(p, data) : data;
    }
  }
  const pick = (ids: string[] | boolean | undefined, kinds: string[]) => {
    if (!ids) return [];
    const chosen = ids === true || ids.length === 0 ? pending.filter((p) => kinds.includes(p.kind)) : ids.map((id) => findPending(pending, id));
    return chosen;
  };
  for (const p of pick(flags.approve, ['approval', 'plan_review'])) targets[p.id] = p.kind === 'plan_review' ? { accept: true } : { approved: true };
  for (const p of pick(flags.always, ['approval'])) {
    if (p.kind !== 'approval') throw new InvalidAnswerError(`interrupt ${p.id} is a ${p.kind}, not an approval: "always" allows a tool`);
    targets[p.id] = { approved: true };
  }
  for (const p of pick(flags.reject, ['approval', 'plan_review'])) {
    targets[p.id] = p.kind === 'plan_review' ? { accept: false, feedback: flags.reason ?? 'Please revise the plan.' } : { approved: false, reason: flags.reason };
  }
  if (flags.input !== undefined) for (const p of pending.filter((x) => x.kind === 'input')) targets[p.id] = flags.input;
  if (flags.raise !== undefined) {
    const raise = raisedLimits(flags.raise);
    const budgets = pending.filter((x) => x.kind === 'budget');
    if (!budgets.length) throw new InvalidAnswerError(`--raise: no budget was reached here; pending: ${pending.map((p) => p.kind).join(', ') || 'none'}`);
    for (const p of budgets) targets[p.id] = { raise };
  }
  return targets;
}

/**
 * An answer to a reached budget, checked before anything resumes (a bad one would end the stopped run):
 * `{ raise: { max_cost: 5 } }`, `{ stop: true }`, a number (the budget's new limit), or yes (twice the
 * limit) / no or "stop".
 */
export function budgetAnswer(p: PendingInterrupt, v: unknown): { raise: Record<string, number> } | { stop: true } {
  const b = p.budget;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as { raise?: unknown; stop?: unknown };
    if (o.stop === true) return { stop: true };
    if (o.raise && typeof o.raise === 'object' && !Array.isArray(o.raise)) return { raise: raisedLimits(o.raise as Record<string, unknown>) };
  }
  if (typeof v === 'number' && b) return { raise: raisedLimits({ [b.name]: v }) };
  const word = typeof v === 'string' ? v.trim().toLowerCase() : v === true ? 'yes' : v === false ? 'no' : '';
  if (['no', 'n', 'stop', 'reject', 'deny'].includes(word)) return { stop: true };
  if (['yes', 'y', 'ok', 'raise', 'approve', 'accept'].includes(word) && b) return { raise: { [b.name]: suggestedLimit(b.name, b.limit) } };
  if (typeof v === 'string' && b && /^\$?\d+(\.\d+)?$/.test(v.trim())) return { raise: raisedLimits({ [b.name]: Number(v.trim().replace(/^\$/, '')) }) };
  throw new InvalidAnswerError(`interrupt ${p.id} is a budget reached (${b?.name ?? 'a budget'}${b ? `: ${b.spent} spent of ${b.limit}` : ''}): answer {"raise": {"${b?.name ?? 'max_cost'}": N}}, the new limit as a number, yes (twice the limit) or stop`);
}

// The names RunBudget knows, one list for both checks.
const BUDGET_NAMES: readonly string[] = Object.keys(BUDGET_FIELDS);

/** `['max_cost=5', 'max-model-calls=40']` (or the object itself) as checked limits. */
export function raisedLimits(raise: string[] | Record<string, unknown>): Record<string, number> {
  const pairs = Array.isArray(raise)
    ? raise.map((text) => {
        const m = /^\s*([a-z_-]+)\s*=\s*\$?([^\s]+)\s*$/i.exec(text);
        if (!m) throw new InvalidAnswerError(`--raise ${text}: expected budget=value, such as max_cost=5 or max_model_calls=40`);
        return [m[1]!, Number(m[2]!.replace(/_/g, ''))] as const;
      })
    : Object.entries(raise);
  const out: Record<string, number> = {};
  for (const [key, value] of pairs) {
    const name = String(key).toLowerCase().replace(/-/g, '_');
    if (!BUDGET_NAMES.includes(name)) throw new InvalidAnswerError(`cannot raise '${key}': budgets are ${BUDGET_NAMES.join(', ')}`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InvalidAnswerError(`cannot raise ${name} to ${JSON.stringify(value)}: give a number above 0`);
    if (name !== 'max_cost' && !Number.isSafeInteger(value)) throw new InvalidAnswerError(`cannot raise ${name} to ${value}: give a whole number`);
    out[name] = value;
  }
  if (!Object.keys(out).length) throw new InvalidAnswerError('raise: name at least one budget, such as max_cost=5');
  return out;
}

/** The tools that "always" answers allow from now on in the session (its grants). */
export function grantsFromFlags(pending: PendingInterrupt[], flags: Pick<AnswerFlags, 'always'>): string[] {
  if (!flags.always) return [];
  const chosen = flags.always === true || flags.always.length === 0 ? pending.filter((p) => p.kind === 'approval') : flags.always.map((id) => findPending(pending, id));
  return [...new Set(chosen.map((p) => p.tool).filter((t): t is string => !!t))];
}

/** The pending interrupt `id` names, whole or by a prefix only it has: answering a guess could run the wrong command. */
function findPending(pending: PendingInterrupt[], id: string): PendingInterrupt {
  const exact = pending.find((p) => p.id === id);
  if (exact) return exact;
  const hits = pending.filter((p) => p.id.startsWith(id));
  if (hits.length === 1) return hits[0];
  const known = pending.map((p) => `${p.id} (${p.kind}${p.tool ? ` ${p.tool}` : ''})`).join(', ') || 'none';
  if (hits.length === 0) throw new InvalidAnswerError(`no pending interrupt ${id}; pending: ${known}`);
  throw new InvalidAnswerError(`interrupt id '${id}' matches ${hits.length} pending interrupts; give more of the id. pending: ${known}`);
}
