import type { Message, Usage } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool-info.js';
import { estimateUsage } from './token-estimate.js';

/**
 * What a model request that failed mid-stream used (issue 32: usage is summed over every model call,
 * retries too). The provider processed the whole prompt and billed what it streamed before the
 * connection broke, but such a stream rarely ends with usage: then the prompt and the partial reply
 * are counted by estimate (marked `estimated`). Never throws: an observer's count must not fail a run.
 */
export async function failedAttemptUsage(model: string, messages: readonly Message[], tools: readonly ToolInfo[] | undefined, partial: Message): Promise<Usage | undefined> {
  if (partial.usage) return partial.usage;
  const streamed = [partial.reasoningContent ?? '', partial.content, ...(partial.toolCalls ?? []).flatMap((c) => [c.function.name, c.function.arguments])].join('');
  try {
    return await estimateUsage(model, [...messages], tools ? [...tools] : undefined, streamed);
  } catch {
    return undefined;
  }
}
