import { ModelHttpError } from '../errors.js';

/** OpenAI's answer (404, or 400 on some models) when a Responses-only model is asked on Chat Completions. */
const RESPONSES_ONLY = /only supported in v1\/responses|not supported (in|on|with) (the )?(v1\/)?chat\/completions|use the responses api/i;

/**
 * A Chat Completions error saying the model exists only on the Responses API (o3-pro, codex,
 * computer-use models) names the key that fixes it; other errors are returned as they are.
 */
export function withResponsesHint(err: ModelHttpError, configName?: string): ModelHttpError {
  if ((err.status !== 404 && err.status !== 400) || !RESPONSES_ONLY.test(err.message)) return err;
  const detail = err.message.replace(/^model request failed with HTTP \d+: /, '');
  const where = configName ? ` on the models entry '${configName}'` : '';
  return new ModelHttpError(err.status, `${detail} (this model is served only by OpenAI's Responses API: set \`api: responses\`${where})`, err.retryAfterMs, {
    cause: err,
    ...(err.providerCode ? { providerCode: err.providerCode } : {}),
  });
}
