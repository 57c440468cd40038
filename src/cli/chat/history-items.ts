import { TRANSFER_TOOL_NAME } from '../../core/index.js';
import type { NewTranscriptItem } from '../../ui/index.js';
import type { HistoryMessage } from '../../core/conversation/conversation.js';
import { compactionText } from '../../core/middlewares/summarize.js';
import { ranWith, resultText } from '../../ui/state/tool-reducer.js';
import { toolResultStatus } from '../../ui/state/tool-status.js';
import { typedText } from './typed-text.js';

/** Where the model's context was compacted, to mark it among the rows: `⋯ 143 earlier messages summarised`. */
export interface CompactionMark {
  /** Index in `messages` before which the mark goes. */
  at: number;
  summarized: number;
}

/** A saved session's loaded messages as rows, with its compaction marked (and how many earlier messages were not loaded). */
export function sessionItems(record: { messages: HistoryMessage[]; messagesFrom?: number; contextStart?: number; contextSummary?: { summarized: number } }): NewTranscriptItem[] {
  const from = record.messagesFrom ?? 0;
  const mark = record.contextSummary && record.contextStart !== undefined ? { at: record.contextStart - from, summarized: record.contextSummary.summarized } : undefined;
  const items = historyItems(record.messages, mark);
  return from > 0 ? [{ kind: 'info', tone: 'muted', text: `⋯ ${from} earlier messages not shown (adk sessions show lists them all)` }, ...items] : items;
}

/** A saved conversation as transcript rows, so `adk resume` shows what came before. */
export function historyItems(messages: HistoryMessage[], mark?: CompactionMark): NewTranscriptItem[] {
  const results = new Map<string, HistoryMessage>();
  for (const m of messages) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  const items: NewTranscriptItem[] = [];
  let n = 0;
  for (const [i, m] of messages.entries()) {
    if (mark && i === mark.at) items.push({ kind: 'info', tone: 'muted', text: compactionText({ summarized: mark.summarized }) });
    if (m.role === 'user') items.push({ kind: 'user', text: typedText(m.content) });
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
      // As the live row showed it: the arguments a person edited, ⊘ for a rejection.
      const r = results.get(c.id);
      items.push({
        kind: 'tool',
        agent,
        call: { callId: c.id, name: c.function.name, args: c.function.arguments, status: r ? toolResultStatus(r) : 'pending', result: r && resultText(r), ...(r && ranWith(r)) },
      });
    }
  }
  // After `/compact` the context starts after the last message.
  if (mark && mark.at >= messages.length) items.push({ kind: 'info', tone: 'muted', text: compactionText({ summarized: mark.summarized }) });
  return items;
}
