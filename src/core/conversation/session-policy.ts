import { parseAllowRule, type AllowRule } from '../agents/allow-rules.js';
import type { ApprovalPolicy } from '../agents/run-context.js';
import { AdkError } from '../errors.js';
import type { PendingInterrupt, SessionPolicy } from '../store/session-record.js';
import { parsePermissionMode, permissionModePolicy, type PermissionMode } from './permission-modes.js';

/** What a run does when a call needs a person and none is there: wait (ask), answer "no" (deny), or end the run (fail). */
export type OnApproval = 'ask' | 'deny' | 'fail';
export const ON_APPROVAL: readonly OnApproval[] = ['ask', 'deny', 'fail'];

export type { SessionPolicy } from '../store/session-record.js';

/** A policy that cannot be kept (an unknown mode, a rule that does not parse). */
export class InvalidPolicyError extends AdkError {
  constructor(message: string) {
    super('invalid_policy', message);
  }
}

/**
 * A policy as a client writes it (`permission_mode`, `allow`, `deny`, `on_approval`), checked.
 * `bypass` runs everything unasked: a face offers it only where a person allowed it (`allowBypass`).
 */
export function parseSessionPolicy(
  raw: { permission_mode?: string | undefined; allow?: string[] | undefined; deny?: string[] | undefined; on_approval?: string | undefined },
  opts: { allowBypass?: boolean; /** The server lets clients only narrow what runs (`adk serve --client-policy narrow`). */ narrowOnly?: boolean } = {},
): SessionPolicy {
  const policy: SessionPolicy = {};
  const narrow = (what: string) => new InvalidPolicyError(`${what} would let more run unasked; this server lets a client only narrow what runs (deny rules, plan mode, on_approval): adk serve --client-policy narrow`);
  if (raw.permission_mode !== undefined) {
    const mode = parsePermissionMode(raw.permission_mode);
    if (!mode) throw new InvalidPolicyError(`permission_mode '${raw.permission_mode}': expected default, accept-edits or plan`);
    if (mode === 'bypass' && !opts.allowBypass) throw new InvalidPolicyError('permission_mode bypass runs every call unasked; this server does not offer it');
    if (opts.narrowOnly && mode !== 'default' && mode !== 'plan') throw narrow(`permission_mode ${mode}`);
    policy.permissionMode = mode;
  }
  for (const key of ['allow', 'deny'] as const) {
    const texts = raw[key];
    if (!texts?.length) continue;
    if (key === 'allow' && opts.narrowOnly) throw narrow(`allow ${JSON.stringify(texts[0])}`);
    for (const text of texts) {
      const rule = parseAllowRule(text);
      if (typeof rule === 'string') throw new InvalidPolicyError(`${key} ${JSON.stringify(text)}: ${rule}`);
    }
    policy[key] = [...texts];
  }
  if (raw.on_approval !== undefined) {
    const on = raw.on_approval.trim().toLowerCase() as OnApproval;
    if (!ON_APPROVAL.includes(on)) throw new InvalidPolicyError(`on_approval '${raw.on_approval}': expected ask, deny or fail`);
    policy.onApproval = on;
  }
  return policy;
}

/** The policy's mode and rules, as the session's approval policy takes them. */
export function policyApproval(policy: SessionPolicy): { mode?: ApprovalPolicy | undefined; allow: AllowRule[]; deny: AllowRule[] } {
  const rules = (texts: string[] = [], key: string) =>
    texts.flatMap((text) => {
      const r = parseAllowRule(text);
      return typeof r === 'string' ? [] : [{ ...r, source: `the session's policy (${key})` }];
    });
  return { mode: policy.permissionMode ? permissionModePolicy(policy.permissionMode) : undefined, allow: rules(policy.allow, 'allow'), deny: rules(policy.deny, 'deny') };
}

/** The reason the model is given for a call nobody could approve (`on_approval: deny`). */
export const UNATTENDED_DENIAL = 'Not run: adk is running unattended (--on-approval deny) and no one can approve this call. Do the task without it, or say what you would need.';

/** How many times in one run `deny` answers before the run ends (a model that only asks again would loop). */
export const MAX_DENIAL_ROUNDS = 25;

/** Whether every question a run stopped at is a call to approve (the only kind `deny` can answer). */
export const onlyApprovals = (pending: readonly PendingInterrupt[]) => pending.length > 0 && pending.every((p) => p.kind === 'approval' || p.kind === 'plan_review');

/** "No" to each of them, with the reason the model sees. */
export function denials(pending: readonly PendingInterrupt[]): Record<string, unknown> {
  return Object.fromEntries(pending.map((p) => [p.id, p.kind === 'plan_review' ? { accept: false, feedback: UNATTENDED_DENIAL } : { approved: false, reason: UNATTENDED_DENIAL }]));
}

/** The calls a run waits on, as one line: `shell {"command":"rm -rf build"}`. */
export function describePending(pending: readonly PendingInterrupt[]): string {
  return pending.map((p) => (p.tool ? `${p.tool} ${JSON.stringify(p.arguments ?? {})}` : p.kind)).join('; ');
}
