/** A request the server rejected because it is longer than the model's window (OpenAI, vLLM, llama.cpp, Ollama, LM Studio wording). */
export function isContextOverflow(err: unknown): boolean {
  const e = err as { status?: unknown; message?: unknown; providerCode?: unknown; lastError?: unknown } | null;
  if (!e) return false;
  if (e.lastError) return isContextOverflow(e.lastError);
  if (e.providerCode === 'context_length_exceeded') return true;
  if (e.status !== 400 && e.status !== 413 && e.status !== 422 && e.status !== 500) return false;
  return typeof e.message === 'string' && CONTEXT_OVERFLOW.test(e.message);
}

const CONTEXT_OVERFLOW =
  /context_length_exceeded|maximum context length|context window|exceeds the available context size|prompt is too long|too many tokens|reduce the length of the (input )?messages|input is too long/i;
