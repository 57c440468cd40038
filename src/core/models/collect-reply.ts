import { concatChunks } from '../schema/concat.js';
import type { Message, MessageChunk } from '../schema/message.js';

/** A whole assistant reply from a model's stream: what `generate` is for models that only stream. */
export async function collectReply(stream: AsyncIterable<MessageChunk>): Promise<Message> {
  const chunks: MessageChunk[] = [];
  for await (const c of stream) chunks.push(c);
  const msg = concatChunks(chunks);
  msg.role = 'assistant';
  return msg;
}
