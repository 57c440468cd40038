import type { ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import { concatChunks } from '../schema/concat.js';
import type { Message, MessageChunk } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool.js';
import type { ToolChoice } from './chat-model.js';
import { OpenAIStreamDecoder } from './openai-stream.js';

export { toOpenAIMessages } from './openai-messages.js';

export function toOpenAITools(tools: ToolInfo[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export function toOpenAIToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * A whole (non-streamed) completion as our message. It goes through the stream decoder as one delta,
 * so both paths survive the same server quirks.
 */
export function fromOpenAICompletion(completion: unknown, toolNames?: readonly string[]): Message {
  const body = completion as { choices?: Array<{ message?: Record<string, unknown>; finish_reason?: unknown }>; usage?: unknown };
  const choice = body.choices?.[0];
  const m = choice?.message ?? {};
  const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as Array<Record<string, unknown>>).filter((c) => c?.type !== 'custom') : [];
  const delta = { ...m, tool_calls: calls.map((c, index) => ({ ...c, index: typeof c.index === 'number' ? c.index : index })) };
  const decoder = new OpenAIStreamDecoder({ toolNames });
  const chunks: MessageChunk[] = [];
  const first = decoder.decode({ choices: [{ index: 0, delta, finish_reason: choice?.finish_reason ?? null }], usage: body.usage });
  if (first) chunks.push(first);
  const rest = decoder.finish();
  if (rest) chunks.push(rest);
  const msg = concatChunks(chunks);
  msg.role = 'assistant';
  return msg;
}
