import { TRANSFER_TOOL_NAME } from '../../core/index.js';
import type { NewTranscriptItem } from '../../ui/index.js';
import type { HistoryMessage } from '../conversation.js';

/** A saved conversation as transcript rows, so `adk resume` shows what came before. */
export function historyItems(messages: HistoryMessage[]): NewTranscriptItem[] {
  const results = new Map<string, HistoryMessage>();
  for (const m of messages) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  const items: NewTranscriptItem[] = [];
  let n = 0;
  for (const m of messages) {
    if (m.role === 'user') items.push({ kind: 'user', text: m.content });
    if (m.role !== 'assistant') continue;
    const agent = m.agentName ?? 'assistant';
    if (m.content.trim()) items.push({ kind: 'assistant', agent, text: m.content, messageId: `history-${n++}`, showHeader: true });
    for (const c of m.toolCalls ?? []) {
      if (c.function.name === TRANSFER_TOOL_NAME) {
        let to = '';
        try {
          to = (JSON.parse(c.function.arguments) as { agent_name?: string }).agent_name ?? '';
        } catch {
          to = c.function.arguments;
        }
        items.push({ kind: 'transfer', from: agent, to });
        continue;
      }
      const r = results.get(c.id);
      items.push({
        kind: 'tool',
        agent,
        call: { callId: c.id, name: c.function.name, args: c.function.arguments, status: r ? (r.isError ? 'error' : 'done') : 'pending', result: r?.content },
      });
    }
  }
  return items;
}
