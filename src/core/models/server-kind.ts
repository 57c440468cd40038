import type { ProviderName } from './providers.js';

/** Servers whose quirks adk handles that a plain OPENAI_BASE_URL may point at, told by what they answer. */
export type DetectedServer = Extract<ProviderName, 'ollama' | 'vllm' | 'lmstudio' | 'llamacpp' | 'deepseek'>;

/**
 * The server behind an OpenAI-compatible endpoint, by a field only it sends: Ollama's `fp_ollama`
 * fingerprint, llama.cpp's `b<build>-<commit>` fingerprint, DeepSeek's `…_prod…` fingerprints; in
 * `GET /models`, vLLM's `owned_by: vllm` and `max_model_len`, llama.cpp's `owned_by: llamacpp`, LM
 * Studio's `organization_owner`, Ollama's `library`, DeepSeek's `deepseek`.
 */
export function serverOfChunk(raw: unknown): DetectedServer | undefined {
  const fp = (raw as { system_fingerprint?: unknown } | null)?.system_fingerprint;
  if (typeof fp !== 'string') return undefined;
  if (fp === 'fp_ollama') return 'ollama';
  if (/^b\d+-[0-9a-f]{6,}$/.test(fp)) return 'llamacpp';
  if (/^fp_[0-9a-f]+_prod\d+/.test(fp)) return 'deepseek';
  return undefined;
}

/** The server by one entry of `GET /models` (see serverOfChunk). */
export function serverOfModelEntry(entry: Record<string, unknown>): DetectedServer | undefined {
  const owner = entry.owned_by;
  if (owner === 'vllm' || typeof entry.max_model_len === 'number') return 'vllm';
  if (owner === 'llamacpp') return 'llamacpp';
  if (owner === 'organization_owner' || typeof entry.max_context_length === 'number') return 'lmstudio';
  if (owner === 'library' || owner === 'ollama') return 'ollama';
  if (owner === 'deepseek') return 'deepseek';
  return undefined;
}
