import { redactSecrets } from '../store/redact.js';
import type { ChatModel } from '../models/chat-model.js';
import { systemMessage, userMessage, type Message } from '../schema/message.js';
import { isSummaryMessage, SUMMARY_HEADER } from './cut.js';
import type { TokenCounter } from './token-counter.js';

/** The summary as the model reads it, in place of the messages it stands for. */
export function summaryMessage(summary: { text: string; summarized: number }): Message {
  return userMessage(`${SUMMARY_HEADER}: ${summary.summarized} earlier messages]\n${summary.text}`);
}

/** How many messages a summary message stands for (0 for any other message). */
export function summarizedCount(m: Message | undefined): number {
  if (!m || !isSummaryMessage(m)) return 0;
  return Number(/^[^:\n]*: (\d+) earlier messages\]/.exec(m.content)?.[1] ?? 0);
}

/** The text of a summary message (without its header line). */
export function summaryText(m: Message): string | undefined {
  return isSummaryMessage(m) ? m.content.slice(m.content.indexOf('\n') + 1) : undefined;
}

/** The system prompt of a summary request: what a compaction summary must keep and how it is laid out. */
export const SUMMARY_PROMPT = `You are compacting a conversation between a user and an AI assistant so that it can go on in a smaller context window. Write a structured summary that lets the assistant continue as if it had the whole conversation. Use these sections:

1. Goal: what the user wants, in their words where possible.
2. Facts and decisions: every concrete fact, name, number, identifier, path and preference the user or the tools gave. Keep them exact.
3. Work done: files read or changed, commands run and what they showed, tool results that matter.
4. Open items: what is unfinished, pending questions, the next step.

Fold the previous summary, if there is one, into yours: drop nothing from it that still matters. Write only the summary.`;

export interface SummaryOptions {
  model: ChatModel;
  counter: TokenCounter;
  /** Most tokens one summary request may carry: longer histories are folded in several requests. */
  inputBudget: number;
  /** What the person asked the summary to keep (`/compact keep the API design`). */
  instructions?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Each summary reply, so its usage is counted with the run's (see usage-meter.ts). */
  onReply?: ((reply: Message) => void) | undefined;
  /** The run's secrets: redacted from what the summary request sends, as from every model request. */
  secrets?: readonly string[] | undefined;
}

/** Each message as a line of a plain transcript (tool results and arguments cut to a few thousand characters). */
function render(m: Message): string {
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)} …[${s.length - n} more characters]` : s);
  if (m.role === 'tool') return `[tool ${m.toolName ?? ''} returned${m.isError ? ' an error' : ''}]: ${clip(m.content, 2000)}`;
  const calls = (m.toolCalls ?? []).map((c) => `[${m.role} called ${c.function.name} with ${clip(c.function.arguments, 1000)}]`).join('\n');
  return [m.content ? `[${m.role}]: ${clip(m.content, 8000)}` : '', calls].filter(Boolean).join('\n');
}

/**
 * Has the model summarise `messages` (a leading summary message is folded in). Histories larger
 * than the input budget are summarised in slices, each request carrying the summary so far.
 */
export async function writeSummary(messages: readonly Message[], opts: SummaryOptions): Promise<string> {
  let summary = '';
  let rest = [...messages];
  if (rest.length && isSummaryMessage(rest[0])) summary = summaryText(rest.shift()!) ?? '';
  const system = systemMessage(opts.instructions ? `${SUMMARY_PROMPT}\n\nThe user asks that the summary: ${opts.instructions}` : SUMMARY_PROMPT);
  const request = (lines: string[]): Message[] => [
    system,
    userMessage(`${summary ? `Previous summary:\n${summary}\n\n` : ''}Conversation to summarise:\n${lines.join('\n')}`),
  ];
  while (rest.length) {
    // Each line is counted once (a running total): re-counting the whole request per line would be quadratic.
    let used = await opts.counter.count(request([]));
    const lines: string[] = [];
    for (const m of rest) {
      const line = render(m);
      const cost = await opts.counter.count([userMessage(line)]);
      if (lines.length && used + cost > opts.inputBudget) break;
      lines.push(line);
      used += cost;
    }
    const messages = request(lines);
    const reply = await opts.model.generate(opts.secrets?.length ? redactSecrets(messages, opts.secrets) : messages, { signal: opts.signal });
    opts.onReply?.(reply);
    summary = reply.content.trim();
    if (!summary) throw new Error('the model wrote an empty summary');
    rest = rest.slice(lines.length);
  }
  return summary;
}
