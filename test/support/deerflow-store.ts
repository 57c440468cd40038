/**
 * DeerFlow 1.x's front-end message store, reimplemented for tests from bytedance/deer-flow branch
 * main-1.x: web/src/core/messages/merge-message.ts (mergeMessage) and web/src/core/store/store.ts
 * (sendMessage's event loop, appendMessage's research bookkeeping, useLastInterruptMessage).
 * Same rules: messages keyed by `data.id`, chunks appended to a known id, a tool result merged into
 * the message holding its call, a research opened by the first researcher/coder/reporter message.
 */
export interface StoreMessage {
  id: string;
  threadId: string;
  agent?: string | undefined;
  role: string;
  isStreaming?: boolean;
  content: string;
  contentChunks: string[];
  reasoningContent?: string;
  toolCalls?: Array<{ id: string; name: string; args: Record<string, unknown>; argsChunks?: string[]; result?: string }>;
  options?: Array<{ text: string; value: string }>;
  finishReason?: string;
  interruptFeedback?: string | undefined;
}

export interface ChatEvent {
  event: string;
  data: any;
}

export class DeerFlowStore {
  messageIds: string[] = [];
  messages = new Map<string, StoreMessage>();
  researchIds: string[] = [];
  researchPlanIds = new Map<string, string>();
  researchReportIds = new Map<string, string>();
  researchActivityIds = new Map<string, string[]>();
  ongoingResearchId: string | null = null;
  private userSeq = 0;

  /** store.ts sendMessage: the user's message (when there is content), then the stream's events. */
  send(content: string | undefined, events: readonly ChatEvent[], interruptFeedback?: string): void {
    if (content != null) this.append({ id: `user-${++this.userSeq}`, threadId: '', role: 'user', content, contentChunks: [content] });
    for (const { event: type, data } of events) {
      if (type === 'error') break;
      if (type === 'citations') continue;
      let message: StoreMessage | undefined;
      let messageId: string;
      if (type === 'tool_call_result') {
        message = [...this.messages.values()].reverse().find((m) => m.toolCalls?.some((t) => t.id === data.tool_call_id));
        if (!message) continue;
        messageId = message.id;
      } else {
        messageId = data.id;
        if (!this.messageIds.includes(messageId)) {
          message = { id: messageId, threadId: data.thread_id, agent: data.agent, role: data.role, content: '', contentChunks: [], reasoningContent: '', isStreaming: true, interruptFeedback };
          this.append(message);
        }
      }
      message ??= this.messages.get(messageId);
      if (message) this.update(mergeMessage(message, type, data));
    }
  }

  /** The messages in order. */
  list(): StoreMessage[] {
    return this.messageIds.map((id) => this.messages.get(id)!);
  }

  /** useLastInterruptMessage: the review buttons show when the last message is an interrupt. */
  lastInterrupt(): StoreMessage | null {
    const last = this.messages.get(this.messageIds.at(-1)!);
    return this.messageIds.length >= 2 && last?.finishReason === 'interrupt' ? last : null;
  }

  private append(m: StoreMessage): void {
    if (m.agent === 'coder' || m.agent === 'reporter' || m.agent === 'researcher') {
      if (!this.ongoingResearchId) this.appendResearch(m.id);
      const current = this.researchActivityIds.get(this.ongoingResearchId!)!;
      if (!current.includes(m.id)) this.researchActivityIds.set(this.ongoingResearchId!, [...current, m.id]);
      if (m.agent === 'reporter') this.researchReportIds.set(this.ongoingResearchId!, m.id);
    }
    if (!this.messageIds.includes(m.id)) this.messageIds.push(m.id);
    this.messages.set(m.id, m);
  }

  private update(m: StoreMessage): void {
    if (this.ongoingResearchId && m.agent === 'reporter' && !m.isStreaming) this.ongoingResearchId = null;
    this.messages.set(m.id, m);
  }

  /** store.ts appendResearch: the latest planner message is the research's plan (the page fails without one). */
  private appendResearch(researchId: string): void {
    const plan = [...this.messageIds].reverse().map((id) => this.messages.get(id)!).find((m) => m.agent === 'planner');
    if (!plan) throw new Error(`research ${researchId} opened with no plan message before it (DeerFlow's page reads planMessage!.id)`);
    this.ongoingResearchId = researchId;
    this.researchIds.push(researchId);
    this.researchPlanIds.set(researchId, plan.id);
    this.researchActivityIds.set(researchId, [plan.id, researchId]);
  }
}

/** merge-message.ts mergeMessage. */
export function mergeMessage(message: StoreMessage, type: string, data: any): StoreMessage {
  if (type === 'message_chunk') {
    if (data.content) {
      message.content += data.content;
      message.contentChunks.push(data.content);
    }
    if (data.reasoning_content) message.reasoningContent = (message.reasoningContent ?? '') + data.reasoning_content;
  } else if (type === 'tool_calls' || type === 'tool_call_chunks') {
    if (type === 'tool_calls' && data.tool_calls[0]?.name) message.toolCalls = data.tool_calls.map((raw: any) => ({ id: raw.id, name: raw.name, args: raw.args, result: undefined }));
    message.toolCalls ??= [];
    for (const chunk of data.tool_call_chunks) {
      if (chunk.id) {
        const call = message.toolCalls.find((t) => t.id === chunk.id);
        if (call) call.argsChunks = [chunk.args];
      } else {
        const streaming = message.toolCalls.find((t) => t.argsChunks?.length);
        if (streaming) streaming.argsChunks!.push(chunk.args);
      }
    }
  } else if (type === 'tool_call_result') {
    const call = message.toolCalls?.find((t) => t.id === data.tool_call_id);
    if (call) call.result = data.content;
  } else if (type === 'interrupt') {
    message.isStreaming = false;
    message.options = data.options;
  }
  if (type !== 'citations' && type !== 'error' && data.finish_reason) {
    message.finishReason = data.finish_reason;
    message.isStreaming = false;
    for (const call of message.toolCalls ?? []) {
      if (call.argsChunks?.length) {
        call.args = JSON.parse(call.argsChunks.join(''));
        delete call.argsChunks;
      }
    }
  }
  return structuredClone(message);
}
