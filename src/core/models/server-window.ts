/** Conservative window for a model whose server does not say (tokens); `context_window` overrides it. */
export const DEFAULT_CONTEXT_WINDOW = 32_768;

/**
 * A model's context window as its server's `GET /models` entry states it: OpenRouter and Together
 * `context_length`, vLLM `max_model_len`, LM Studio `max_context_length` (or `loaded_context_length`).
 */
export function windowOfModelEntry(entry: Record<string, unknown>): number | undefined {
  for (const key of ['max_model_len', 'loaded_context_length', 'max_context_length', 'context_length', 'context_window']) {
    const v = entry[key];
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  }
  const top = entry.top_provider as { context_length?: unknown } | undefined;
  return typeof top?.context_length === 'number' && top.context_length > 0 ? top.context_length : undefined;
}

/**
 * Ollama's `/api/show` answer: `num_ctx` in its parameters text (what the server will use), else
 * the model's trained `<arch>.context_length` from `model_info`.
 */
export function windowOfOllamaShow(body: unknown): number | undefined {
  const b = (body ?? {}) as { parameters?: unknown; model_info?: Record<string, unknown> };
  if (typeof b.parameters === 'string') {
    const m = /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(b.parameters);
    if (m) return Number(m[1]);
  }
  for (const [k, v] of Object.entries(b.model_info ?? {})) if (k.endsWith('.context_length') && typeof v === 'number' && v > 0) return v;
  return undefined;
}
