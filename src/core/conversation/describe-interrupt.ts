import type { InterruptContext, InterruptDetails } from '../interrupt.js';

/** A waiting interrupt as JSON Lines, the session record and the REPL show it: kind, tool, call, arguments, message. */
export function describeInterrupt(c: InterruptContext) {
  const info = (c.info ?? {}) as Partial<InterruptDetails>;
  return {
    id: c.id,
    address: c.address,
    kind: info.kind ?? 'custom',
    ...(info.tool ? { tool: info.tool } : {}),
    ...(info.callId ? { callId: info.callId } : {}),
    ...(info.arguments !== undefined ? { arguments: info.arguments } : {}),
    ...(info.mayHaveRun ? { mayHaveRun: true } : {}),
    ...(info.alwaysAsks ? { alwaysAsks: true } : {}),
    ...(info.plan ? { plan: info.plan } : {}),
    ...(info.budget ? { budget: info.budget } : {}),
    ...(info.diff ? { diff: info.diff } : {}),
    // A custom interrupt's data, or an MCP server's form (`{elicitation}`) for faces that draw forms.
    ...(info.data !== undefined ? { data: info.data } : {}),
    message: info.message ?? '',
  };
}

