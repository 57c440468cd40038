/** Context windows (tokens) of common models, by name pattern; the first match wins. */
const KNOWN: Array<[RegExp, number]> = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^(o1|o3|o4)(-|$)/, 200_000],
  [/^gpt-4o|^chatgpt-4o|^gpt-4-turbo/, 128_000],
  [/^gpt-oss/, 131_072],
  [/^gpt-3\.5-turbo/, 16_385],
  [/^gpt-4(-|$)/, 8_192],
  [/^claude-/, 200_000],
  [/^gemini-(1\.5|2\.0|2\.5|3)/, 1_048_576],
  [/^deepseek-(chat|reasoner)/, 128_000],
  [/^(mistral-(large|medium|small)|magistral|codestral|ministral)/, 128_000],
  [/llama-?3\.[123]|llama3\.[123]/i, 128_000],
  [/qwen3/i, 32_768],
];

/** The context window of a model by its name (a provider prefix like `openai/` is ignored); undefined when unknown. */
export function knownContextWindow(model: string): number | undefined {
  const name = model.toLowerCase().replace(/^[\w.-]+\//, '');
  return KNOWN.find(([re]) => re.test(name))?.[1];
}
