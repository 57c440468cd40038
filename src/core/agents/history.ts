import { userMessage, type Message } from '../schema/message.js';
import { recordedMessage, type RecordedEvent } from './session.js';

/** One entry of an agent's rebuilt input: the root input or a recorded message. */
export interface HistoryEntry {
  isUserInput: boolean;
  agentName: string;
  message: Message;
}

/** Turns the recorded history of a run into the input messages of `agentName` (FlowOptions `historyRewriter`). */
export type HistoryRewriter = (entries: HistoryEntry[], agentName: string) => Message[] | Promise<Message[]>;

/**
 * Eino's default: the agent's own messages are replayed as they were; other agents' messages reach
 * it as `For context:` user messages (exact format of Eino's rewriteMessage). A message the person
 * sent into a running turn (recorded under the agent that took it) is the person's for every agent.
 */
export const defaultHistoryRewriter: HistoryRewriter = (entries, agentName) =>
  entries.map((e) => (e.isUserInput || e.agentName === agentName || e.message.role === 'user' ? e.message : rewriteMessage(e.message, e.agentName)));

/**
 * Another agent's assistant or tool message as a `For context: [agent] said: …` user message
 * (Eino's rewriteMessage format). Other roles and empty tool results give a bare `For context:`.
 */
export function rewriteMessage(msg: Message, agentName: string): Message {
  let text = 'For context:';
  if (msg.role === 'assistant') {
    if (msg.content !== '') text += ` [${agentName}] said: ${msg.content}.`;
    for (const call of msg.toolCalls ?? []) {
      text += ` [${agentName}] called tool: \`${call.function.name}\` with arguments: ${call.function.arguments}.`;
    }
  } else if (msg.role === 'tool' && msg.content !== '') {
    text += ` [${agentName}] \`${msg.toolName ?? ''}\` tool returned result: ${msg.content}.`;
  }
  return userMessage(text);
}

/** The root input messages followed by the messages of the recorded events, in order; events without a message are skipped. */
export async function historyEntries(rootMessages: Message[], events: RecordedEvent[]): Promise<HistoryEntry[]> {
  const entries: HistoryEntry[] = rootMessages.map((m) => ({ isUserInput: true, agentName: '', message: m }));
  for (const e of events) {
    const m = await recordedMessage(e);
    if (m) entries.push({ isUserInput: false, agentName: e.agentName, message: m });
  }
  return entries;
}
