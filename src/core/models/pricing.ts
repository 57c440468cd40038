/** A model's list price in US dollars per million tokens (prompt and completion). */
export interface ModelPrice {
  input: number;
  output: number;
  /** Where it came from, as `/cost` says it: `price:` on a models: entry, or adk's bundled list. */
  source?: string | undefined;
}

/** When the bundled list prices were read from the providers' price pages. */
export const LIST_PRICES_AS_OF = '2025';

/**
 * List prices of common models (USD per 1M tokens, as published by their providers in 2025), by
 * name pattern; the first match wins. `price:` on a `models:` entry in agents.yaml overrides them.
 */
const KNOWN: Array<[RegExp, ModelPrice]> = [
  [/^gpt-4o-mini/, { input: 0.15, output: 0.6 }],
  [/^gpt-4o|^chatgpt-4o/, { input: 2.5, output: 10 }],
  [/^gpt-4\.1-nano/, { input: 0.1, output: 0.4 }],
  [/^gpt-4\.1-mini/, { input: 0.4, output: 1.6 }],
  [/^gpt-4\.1/, { input: 2, output: 8 }],
  [/^gpt-5-nano/, { input: 0.05, output: 0.4 }],
  [/^gpt-5-mini/, { input: 0.25, output: 2 }],
  [/^gpt-5/, { input: 1.25, output: 10 }],
  [/^o4-mini|^o3-mini/, { input: 1.1, output: 4.4 }],
  [/^o3(-|$)/, { input: 2, output: 8 }],
  [/^claude-(3-5-)?haiku|^claude-haiku/, { input: 0.8, output: 4 }],
  [/^claude-(opus|3-opus)/, { input: 15, output: 75 }],
  [/^claude-/, { input: 3, output: 15 }],
  [/^gemini-2\.5-flash-lite/, { input: 0.1, output: 0.4 }],
  [/^gemini-2\.5-flash/, { input: 0.3, output: 2.5 }],
  [/^gemini-2\.5-pro/, { input: 1.25, output: 10 }],
  [/^deepseek-chat/, { input: 0.27, output: 1.1 }],
  [/^deepseek-reasoner/, { input: 0.55, output: 2.19 }],
  [/^mistral-large/, { input: 2, output: 6 }],
  [/^mistral-small/, { input: 0.1, output: 0.3 }],
];

/** The list price of a model by its name (a provider prefix like `openai/` is ignored); undefined when unknown. */
export function knownPrice(model: string): ModelPrice | undefined {
  const name = model.toLowerCase().replace(/^[\w.-]+\//, '');
  const price = KNOWN.find(([re]) => re.test(name))?.[1];
  return price && { ...price, source: `adk's bundled list price for ${name} (providers' published prices, ${LIST_PRICES_AS_OF})` };
}

/** What `usage` costs at `price`, in US dollars. */
export function costUsd(usage: { promptTokens: number; completionTokens: number }, price: ModelPrice): number {
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
}

/** `$0.0042`, `$0.13`, `$12.40`: enough digits to see small amounts. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 1) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}
