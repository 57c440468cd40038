import type { PendingInterrupt } from '../../../core/store/session-record.js';

/** A LangGraph interrupt: `value` is what the person is asked, `id` what `command.resume` may name. */
export interface LgInterrupt {
  id: string;
  value: Record<string, unknown>;
}

/**
 * An adk interrupt as LangGraph's: its own fields (kind, tool, arguments, message, plan, diff), and
 * for approvals also the agent-inbox `HumanInterrupt` fields (`action_request`, `config`,
 * `description`) and LangChain v1's (`action_requests`, `review_configs`) that agent UIs draw as an approval card.
 */
export function lgInterrupt(p: Omit<PendingInterrupt, 'address'> & { address?: string | undefined; plan?: unknown; data?: unknown }): LgInterrupt {
  const { address: _address, id, ...fields } = p;
  const value: Record<string, unknown> = { ...fields };
  if (p.kind === 'approval') {
    value.action_request = { action: p.tool ?? 'tool', args: p.arguments ?? {} };
    value.config = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };
    value.description = p.message;
    // LangChain v1's human-in-the-loop shape (what agent-chat-ui draws now), answered with `{decisions}`.
    value.action_requests = [{ name: p.tool ?? 'tool', args: p.arguments ?? {}, description: p.message }];
    value.review_configs = [{ action_name: p.tool ?? 'tool', allowed_decisions: ['approve', 'edit', 'reject'] }];
  }
  return { id, value };
}
