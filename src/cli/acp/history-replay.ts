import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { HistoryMessage } from '../../core/conversation/conversation.js';
import { parsedArgs, textContent, toolKind, toolLocations, toolTitle } from './tool-call-view.js';

/**
 * A stored session's conversation as the updates that would have shown it live (session/load):
 * the person's messages, the agents' answers and reasoning, each tool call with its result.
 */
export function historyUpdates(messages: readonly HistoryMessage[], workspace: string): SessionUpdate[] {
  const out: SessionUpdate[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      if (m.content) out.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: m.content } });
    } else if (m.role === 'assistant') {
      if (m.reasoningContent) out.push({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: m.reasoningContent } });
      if (m.content) out.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.content } });
      for (const c of m.toolCalls ?? []) {
        const args = parsedArgs(c.function.arguments);
        out.push({ sessionUpdate: 'tool_call', toolCallId: c.id, title: toolTitle(c.function.name, args), kind: toolKind(c.function.name), status: 'in_progress', locations: toolLocations(c.function.name, args, workspace), rawInput: args });
      }
    } else if (m.role === 'tool' && m.toolCallId) {
      out.push({ sessionUpdate: 'tool_call_update', toolCallId: m.toolCallId, status: m.isError ? 'failed' : 'completed', content: [textContent(m.content)] });
    }
  }
  return out;
}
