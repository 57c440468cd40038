import type { AgentEvent } from '../agents/events.js';
import type { InterruptContext, InterruptDetails } from '../interrupt.js';

/** The call an approval asks about, as the approval policy sees it. */
export interface AskedCall {
  tool: string;
  arguments: unknown;
  agentName: string;
}

/**
 * A tool that asks every time (shell without its sandbox) asks even where the session's "always
 * allow" or an allow rule covers the call. Said silently, that looks like a lost grant (to a person,
 * and to a failing test), so such an approval says why: `why` gives the reason for a call a grant
 * would have allowed, undefined otherwise.
 */
export async function* explainIgnoredGrants(events: AsyncIterable<AgentEvent>, why: (call: AskedCall) => string | undefined): AsyncIterable<AgentEvent> {
  for await (const e of events) {
    const interrupted = e.action?.interrupted;
    if (!interrupted) {
      yield e;
      continue;
    }
    let changed = false;
    const contexts = interrupted.contexts.map((c) => {
      const noted = withNote(c, why);
      changed ||= noted !== c;
      return noted;
    });
    yield changed ? { ...e, action: { ...e.action, interrupted: { ...interrupted, contexts } } } : e;
  }
}

function withNote(c: InterruptContext, why: (call: AskedCall) => string | undefined): InterruptContext {
  const info = c.info as Partial<InterruptDetails> | undefined;
  if (!info || info.kind !== 'approval' || typeof info.tool !== 'string' || typeof info.message !== 'string') return c;
  const reason = why({ tool: info.tool, arguments: info.arguments, agentName: agentOf(c.address) });
  return reason ? { ...c, info: { ...info, message: `${info.message} ("Always allow" does not apply: ${reason}.)` } } : c;
}

/** The innermost agent of an interrupt address (`agent:root;agent:coder;tool:shell:call_1` → coder). */
function agentOf(address: string): string {
  const agents = address.split(';').filter((p) => p.startsWith('agent:'));
  return agents.at(-1)?.slice('agent:'.length) ?? '';
}
