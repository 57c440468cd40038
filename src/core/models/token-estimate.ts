import type { Message, Usage } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool-info.js';

type Tokenizer = { countTokens(text: string): number };
let tokenizer: Promise<Tokenizer> | undefined;
// Loaded on first use only: the encoder tables take a few hundred milliseconds to load.
const load = (): Promise<Tokenizer> => (tokenizer ??= import('gpt-tokenizer') as Promise<Tokenizer>);

/** About what one image costs on OpenAI and Anthropic at their default detail. */
const IMAGE_TOKENS = 1_500;
/** A PDF's pages come as text and images: about one token per 50 bytes of file. */
const PDF_BYTES_PER_TOKEN = 50;

/** Tokens a chat format adds around each message (role markers, separators). */
const PER_MESSAGE = 4;

/**
 * How much more other families' tokenizers produce than OpenAI's o200k for the same text, roughly
 * (Llama, Qwen, Mistral and Gemini vocabularies are smaller). Only used when the server reports nothing.
 */
function familyFactor(model: string): number {
  return /^(gpt-|o\d|chatgpt|openai\/)/i.test(model) ? 1 : 1.1;
}

/**
 * Usage for a reply whose server reported none (some servers never do): the request's messages and
 * tool definitions and the reply, counted with OpenAI's o200k tokenizer and scaled for other model
 * families. Marked `estimated`.
 */
export async function estimateUsage(model: string, messages: Message[], tools: ToolInfo[] | undefined, reply: string): Promise<Usage> {
  const { countTokens } = await load();
  const factor = familyFactor(model);
  const promptTokens = await estimatePromptTokens(model, messages, tools);
  const completionTokens = Math.round(countTokens(reply) * factor);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}

/** A request's prompt tokens: o200k counts of every message and the tool definitions, scaled for the model's family. */
export async function estimatePromptTokens(model: string, messages: readonly Message[], tools?: readonly ToolInfo[]): Promise<number> {
  const { countTokens } = await load();
  let prompt = 0;
  for (const m of messages) {
    prompt += PER_MESSAGE + countTokens(m.content);
    if (m.reasoningContent) prompt += countTokens(m.reasoningContent);
    for (const c of m.toolCalls ?? []) prompt += countTokens(c.function.name) + countTokens(c.function.arguments);
    // Parts are counted by size, never as their base64 text: roughly what providers bill for an image or a PDF.
    for (const p of m.parts ?? []) prompt += p.type === 'image' ? IMAGE_TOKENS : Math.ceil(p.size / PDF_BYTES_PER_TOKEN);
  }
  if (tools?.length) prompt += countTokens(JSON.stringify(tools));
  return Math.round(prompt * familyFactor(model));
}
