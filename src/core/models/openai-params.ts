import { ModelHttpError } from '../errors.js';
import type { ModelOptions } from './chat-model.js';

/** Per-model request settings from a `models:` entry: the ModelOptions a run may override, and OpenAI's own. */
export interface SamplingOptions extends ModelOptions {
  parallelToolCalls?: boolean | undefined;
  /** Ask for token usage in the stream (`stream_options.include_usage`). Default: the profile's. */
  streamUsage?: boolean | undefined;
}

/** Request fields and the `models:` key that sets (or, for stream_options, turns off) each. */
const PARAM_KEYS: Array<[param: string, key: string]> = [
  ['stream_options', 'stream_usage: false'],
  ['max_completion_tokens', 'max_tokens'],
  ['max_tokens', 'max_tokens'],
  ['parallel_tool_calls', 'parallel_tool_calls'],
  ['reasoning_effort', 'reasoning_effort'],
  ['temperature', 'temperature'],
  ['top_p', 'top_p'],
  ['seed', 'seed'],
  ['stop', 'stop'],
  // Anthropic's name for it.
  ['stop_sequences', 'stop'],
];

/**
 * OpenAI's reasoning models (o1, o3, o4, gpt-5 and later) take only `max_completion_tokens`, whichever
 * OpenAI-compatible URL serves them (a gateway, a proxy, Azure): asked right from the first request.
 */
export function takesMaxCompletionTokens(model: string): boolean {
  return /^(?:[\w.-]+\/)?(?:o[134](?:$|[-.])|gpt-[5-9])/i.test(model);
}

export type Adaptation = 'drop_stream_usage' | 'use_max_completion_tokens' | 'use_max_tokens';

const REJECTION = /unsupported|not supported|unrecognized|unknown|extra (inputs|fields)|not permitted|not allowed|invalid/i;

/**
 * A 400/422 that rejects a parameter adk chose by itself, not the user: `stream_options` (Mistral,
 * Groq, Databricks) or the wrong one of `max_tokens` / `max_completion_tokens` (o-series, gpt-5 and
 * the gateways in front of them). Such a request did nothing, so sending it again adapted is safe.
 */
export function rejectedAdaptation(err: unknown, sent: { sentStreamUsage: boolean; maxTokensParam?: string }): Adaptation | undefined {
  if (!(err instanceof ModelHttpError) || (err.status !== 400 && err.status !== 422)) return undefined;
  const text = err.message;
  if (!REJECTION.test(text)) return undefined;
  if (sent.sentStreamUsage && /stream_options|include_usage/.test(text)) return 'drop_stream_usage';
  if (sent.maxTokensParam === 'max_tokens' && /max_tokens/.test(text) && /max_completion_tokens/.test(text)) return 'use_max_completion_tokens';
  if (sent.maxTokensParam === 'max_completion_tokens' && /max_completion_tokens/.test(text) && !/use .?max_completion_tokens/i.test(text)) return 'use_max_tokens';
  return undefined;
}

/** A 400/422 naming a parameter the user set gets told which key of the model entry to change. */
export function explainRejectedParameter(err: ModelHttpError, params: Record<string, unknown>, configName?: string): ModelHttpError {
  if (err.status !== 400 && err.status !== 422) return err;
  for (const [param, key] of PARAM_KEYS) {
    if (params[param] === undefined && param !== 'stream_options') continue;
    if (!namesParameter(err.message, param)) continue;
    const where = configName ? `model '${configName}' in agents.yaml` : 'the model entry in agents.yaml';
    const fix = key.includes(':') ? `set \`${key}\` on ${where}` : `remove or change \`${key}\` on ${where}`;
    const detail = err.message.replace(/^model request failed with HTTP \d+: /, '');
    return new ModelHttpError(err.status, `${detail} (the server rejected \`${param}\`: ${fix})`, err.retryAfterMs, { cause: err, providerCode: err.providerCode });
  }
  return err;
}

/**
 * Whether an error message names `param` as a parameter: quoted (`'temperature'`), as a field
 * (`body.seed: …`), or, for names with an underscore, anywhere. A plain word such as "stop" in prose is not.
 */
function namesParameter(message: string, param: string): boolean {
  if (param.includes('_') && message.includes(param)) return true;
  return new RegExp(`['"\`]${param}['"\`]|\\b${param}\\s*:|\\.${param}\\b`).test(message);
}
