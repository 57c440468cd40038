import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { Message, MessageChunk, ToolCall, Usage } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool.js';
import type { ToolChoice } from './chat-model.js';

/** Our messages as Chat Completions messages. */
export function toOpenAIMessages(messages: Message[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'tool':
        return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
      case 'assistant': {
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content || null,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.function.name, arguments: historyArguments(c.function.arguments) },
          })),
        };
      }
    }
  });
}

/**
 * Arguments of a past call as sent back to the server. Malformed JSON (the model's own mistake, already
 * answered by an error tool result) is replaced by `{}`: some servers (e.g. Ollama) parse the history's
 * arguments and would reject every later request of the conversation.
 */
function historyArguments(args: string): string {
  try {
    JSON.parse(args);
    return args;
  } catch {
    return '{}';
  }
}

export function toOpenAITools(tools: ToolInfo[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export function toOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

export function fromOpenAIUsage(u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens };
}

/** `reasoning_content` (DeepSeek, vLLM, Ollama) or `reasoning` (OpenRouter): not in the SDK's types. */
function reasoningOf(x: unknown): string | undefined {
  const r = x as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof r.reasoning_content === 'string') return r.reasoning_content;
  if (typeof r.reasoning === 'string') return r.reasoning;
  return undefined;
}

/** One SSE chunk as our chunk; undefined when it carries nothing (e.g. an empty keep-alive chunk). */
export function fromOpenAIChunk(chunk: ChatCompletionChunk): MessageChunk | undefined {
  const out: MessageChunk = {};
  const choice = chunk.choices?.find((c) => (c.index ?? 0) === 0) ?? chunk.choices?.[0];
  const delta = choice?.delta;
  if (delta) {
    if (delta.role === 'assistant') out.role = 'assistant';
    if (delta.content) out.content = delta.content;
    const reasoning = reasoningOf(delta);
    if (reasoning) out.reasoningContent = reasoning;
    if (delta.tool_calls?.length) {
      out.toolCalls = delta.tool_calls.map((d, i) => {
        const call: NonNullable<MessageChunk['toolCalls']>[number] = { index: d.index ?? i };
        if (d.id) call.id = d.id;
        if (d.function && (d.function.name !== undefined || d.function.arguments !== undefined)) {
          call.function = {};
          if (d.function.name) call.function.name = d.function.name;
          if (d.function.arguments) call.function.arguments = d.function.arguments;
        }
        return call;
      });
    }
  }
  if (choice?.finish_reason) out.finishReason = choice.finish_reason;
  const usage = fromOpenAIUsage(chunk.usage);
  if (usage) out.usage = usage;
  return Object.keys(out).length ? out : undefined;
}

/** A whole (non-streamed) completion as our message. */
export function fromOpenAICompletion(completion: ChatCompletion): Message {
  const choice = completion.choices?.[0];
  const m = choice?.message;
  const msg: Message = { role: 'assistant', content: m?.content ?? '' };
  const reasoning = m ? reasoningOf(m) : undefined;
  if (reasoning) msg.reasoningContent = reasoning;
  const calls = (m?.tool_calls ?? []).flatMap((c, index): ToolCall[] =>
    c.type === 'custom' ? [] : [{ id: c.id, index, function: { name: c.function.name, arguments: c.function.arguments ?? '' } }],
  );
  if (calls.length) msg.toolCalls = calls;
  const usage = fromOpenAIUsage(completion.usage);
  if (usage) msg.usage = usage;
  if (choice?.finish_reason) msg.finishReason = choice.finish_reason;
  return msg;
}
