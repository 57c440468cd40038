import type { Message } from '../schema/message.js';

export const SUMMARY_HEADER = '[Summary of the earlier conversation';

export function isSummaryMessage(m: Message): boolean {
  return m.role === 'user' && m.content.startsWith(SUMMARY_HEADER);
}

/**
 * Where the kept tail starts so that the last `keepTurns` user turns stay verbatim; 0 when there
 * are no more turns than that. A turn starts at a user message, so a tail never starts with a tool
 * result and a call is never separated from its result.
 */
export function findTurnCut(messages: readonly Message[], keepTurns: number): number {
  const starts = turnStarts(messages);
  return keepTurns >= 1 && starts.length > keepTurns ? starts[starts.length - keepTurns] : 0;
}

/**
 * Inside the last turn (a long tool loop): where the tail of its last `keepSteps` model steps
 * starts (an assistant message, after its predecessor's results); 0 when there are no more steps.
 */
export function findStepCut(messages: readonly Message[], keepSteps: number): number {
  const starts = turnStarts(messages);
  const last = starts.length ? starts[starts.length - 1] : -1;
  const steps = messages.flatMap((m, i) => (i > last && m.role === 'assistant' ? [i] : []));
  return keepSteps >= 1 && steps.length > keepSteps ? steps[steps.length - keepSteps] : 0;
}

function turnStarts(messages: readonly Message[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'user' && !isSummaryMessage(m) ? [i] : []));
}

/**
 * Moves a cut back until no tool result after it answers a call before it. Needed where one list
 * holds several agents' messages (parallel branches are interleaved as they were made).
 */
export function keepCallsWithResults(messages: readonly Message[], cut: number): number {
  for (;;) {
    const callAt = new Map<string, number>();
    messages.slice(0, cut).forEach((m, i) => {
      for (const c of m.toolCalls ?? []) callAt.set(c.id, i);
    });
    const orphans = messages.slice(cut).flatMap((m) => (m.role === 'tool' && m.toolCallId && callAt.has(m.toolCallId) ? [callAt.get(m.toolCallId)!] : []));
    if (!orphans.length) return cut;
    cut = Math.min(...orphans);
  }
}
