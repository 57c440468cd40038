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

/**
 * Byte-pair encoding takes time quadratic in the length of one run of non-space text, and a tool
 * result may hold a megabyte without a space (a minified file, a page of `<`): such runs are
 * counted in slices of this many characters (a token never spans more), and a long text in windows
 * with a turn of the event loop between them, so counting never holds up the output or Ctrl-C.
 */
const MAX_RUN = 256;
const WINDOW = 64 * 1024;

/** Tokens of `text`, in time linear in its length (see MAX_RUN). */
export async function countTokensSafely(countTokens: (text: string) => number, text: string): Promise<number> {
  let total = 0;
  for (let at = 0; at < text.length; at += WINDOW) {
    if (at > 0) await new Promise((r) => setImmediate(r));
    const window = text.slice(at, at + WINDOW);
    let last = 0;
    for (const run of window.matchAll(/\S{257,}/g)) {
      total += countTokens(window.slice(last, run.index));
      for (let i = 0; i < run[0].length; i += MAX_RUN) total += countTokens(run[0].slice(i, i + MAX_RUN));
      last = run.index + run[0].length;
    }
    total += countTokens(window.slice(last));
  }
  return total;
}

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
  const completionTokens = Math.round((await countTokensSafely(countTokens, reply)) * factor);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
}

/** A request's prompt tokens: o200k counts of every message and the tool definitions, scaled for the model's family. */
export async function estimatePromptTokens(model: string, messages: readonly Message[], tools?: readonly ToolInfo[]): Promise<number> {
  const { countTokens: raw } = await load();
  const countTokens = (text: string) => countTokensSafely(raw, text);
  let prompt = 0;
  for (const m of messages) {
    prompt += PER_MESSAGE + (await countTokens(m.content));
    if (m.reasoningContent) prompt += await countTokens(m.reasoningContent);
    for (const c of m.toolCalls ?? []) prompt += (await countTokens(c.function.name)) + (await countTokens(c.function.arguments));
    // Parts are counted by size, never as their base64 text: roughly what providers bill for an image or a PDF.
    for (const p of m.parts ?? []) prompt += p.type === 'image' ? IMAGE_TOKENS : Math.ceil(p.size / PDF_BYTES_PER_TOKEN);
  }
  if (tools?.length) prompt += await countTokens(JSON.stringify(tools));
  return Math.round(prompt * familyFactor(model));
}
