import { parseAllowRule, type AllowRule } from '../core/agents/allow-rules.js';
import { RunBudget, type BudgetLimits, type DailyLimits } from '../core/agents/run-budget.js';
import type { Conversation } from '../core/conversation/conversation.js';
import { permissionModePolicy, startingMode } from './chat/permission-mode.js';
import { CliError, ExitCode } from './exit-codes.js';
import { containerIsTheSandbox } from './shell-sandbox-env.js';
import type { Team } from './team.js';

import { ON_APPROVAL, type OnApproval } from '../core/conversation/session-policy.js';
export type { OnApproval } from '../core/conversation/session-policy.js';

/** `--max-turns`, `--max-cost`…: the caps of a run (`adk run`, `adk resume`) or of each turn (`adk chat`). */
export interface BudgetFlags {
  maxTurns?: string;
  maxModelCalls?: string;
  maxToolCalls?: string;
  maxTokens?: string;
  maxCost?: string;
  maxDailyModelCalls?: string;
  maxDailyTokens?: string;
  maxDailyCost?: string;
}

/**
 * `--max-daily-…`: caps per day over every run on this store, or over those of `scope` only (one
 * serve token's, one queue's: workers sharing a Redis share them), or undefined.
 */
export function dailyLimits(flags: BudgetFlags, scope?: string): DailyLimits | undefined {
  const limits = definedOnly({
    maxModelCalls: count('max-daily-model-calls', flags.maxDailyModelCalls),
    maxTokens: count('max-daily-tokens', flags.maxDailyTokens),
    maxCost: dollars(flags.maxDailyCost, 'max-daily-cost'),
  });
  return Object.keys(limits).length ? { ...limits, ...(scope ? { scope } : {}) } : undefined;
}

/** The limits those flags set (checked: a bad one is a usage error), or undefined when none is given. */
export function budgetLimits(flags: BudgetFlags): BudgetLimits | undefined {
  const limits = definedOnly({
    maxTurns: count('max-turns', flags.maxTurns),
    maxModelCalls: count('max-model-calls', flags.maxModelCalls),
    maxToolCalls: count('max-tool-calls', flags.maxToolCalls),
    maxTokens: count('max-tokens', flags.maxTokens),
    maxCost: dollars(flags.maxCost, 'max-cost'),
  });
  return Object.keys(limits).length ? limits : undefined;
}

/** The flags of a run nobody watches (`adk run`, headless `adk resume`). */
export interface UnattendedFlags extends BudgetFlags {
  permissionMode?: string;
  dangerouslySkipPermissions?: boolean;
  allow?: string[];
  deny?: string[];
  onApproval?: string;
  maxTime?: string;
  /** `--sandbox container`: as ADK_SANDBOX, for this process. */
  sandbox?: string;
}

/** The policy those flags make, checked before anything starts (a bad flag is a usage error). */
export interface Unattended {
  onApproval: OnApproval;
  /** `--max-time`: the run is cancelled at its checkpoint after this long, and ends incomplete (`budget`). */
  maxTimeMs?: number | undefined;
  apply(conv: Conversation<Team>): void;
}

export function unattendedPolicy(flags: UnattendedFlags): Unattended {
  // Read wherever the shell's sandbox is decided (shell-sandbox-env.ts); checked there, before the team starts.
  if (flags.sandbox !== undefined) process.env.ADK_SANDBOX = flags.sandbox;
  containerIsTheSandbox(process.env);
  const onApproval = (flags.onApproval ?? 'ask').trim().toLowerCase() as OnApproval;
  if (!ON_APPROVAL.includes(onApproval)) throw new CliError(`--on-approval ${flags.onApproval}: expected one of ${ON_APPROVAL.join(', ')}`, ExitCode.usage);
  // The REPL's rules: bypass only with --dangerously-skip-permissions, refused as root outside a sandbox.
  const start = startingMode({ permissionMode: flags.permissionMode, dangerouslySkipPermissions: flags.dangerouslySkipPermissions });
  if ('error' in start) throw new CliError(start.error, ExitCode.usage);
  const rules = (flag: string, texts: string[] = []): AllowRule[] =>
    texts.map((text) => {
      const r = parseAllowRule(text);
      if (typeof r === 'string') throw new CliError(`--${flag} ${r}`, ExitCode.usage);
      return { ...r, source: `--${flag}` };
    });
  const allow = rules('allow', flags.allow);
  const deny = rules('deny', flags.deny);
  const limits = budgetLimits(flags) ?? {};
  const daily = dailyLimits(flags);
  const budgeted = Object.keys(limits).length > 0;
  return {
    onApproval,
    maxTimeMs: flags.maxTime === undefined ? undefined : duration(flags.maxTime),
    apply(conv) {
      // One budget for the whole run: the rounds --on-approval deny resumes count against it too. A
      // stopped run resumed keeps counting against the budget it had; flags given then set its limits.
      if (budgeted) {
        // The agents file's caps hold too, each overridden by its flag.
        const budget = conv.budget && conv.record.checkpointId ? conv.budget : new RunBudget({ ...conv.team.budget, ...limits });
        Object.assign(budget.limits, limits);
        conv.budget = budget;
      }
      if (daily) conv.team.dailyBudget = daily;
      conv.mode = permissionModePolicy(start.mode);
      // For this process only: nothing is written to the session or a settings file.
      conv.team.allowRules = [...conv.team.allowRules, ...allow];
      conv.team.denyRules = [...conv.team.denyRules, ...deny];
    },
  };
}

export { denials, describePending, MAX_DENIAL_ROUNDS, onlyApprovals, UNATTENDED_DENIAL } from '../core/conversation/session-policy.js';

const definedOnly = <T extends object>(limits: T): T => Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as T;

/** A whole number of at least 1 (`--max-model-calls 20`). */
function count(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new CliError(`--${flag} ${text}: expected a whole number of at least 1`, ExitCode.usage);
  return n;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `20m`, `1.5h`, `500ms`; a bare number is seconds. */
export function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * UNITS[m[2] ?? 's']! : NaN;
  if (!(ms >= 1)) throw new CliError(`--max-time ${text}: expected a duration such as 90s, 20m or 1h`, ExitCode.usage);
  return ms;
}

/** `2.50` or `$2.50`: US dollars, more than 0. */
function dollars(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.trim().replace(/^\$/, ''));
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`--${flag} ${text}: expected US dollars such as 2.50`, ExitCode.usage);
  return n;
}
