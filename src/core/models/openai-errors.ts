import { STATUS_CODES } from 'node:http';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AdkError, CancelledError, ModelConnectionError, ModelHttpError, ModelTimeoutError } from '../errors.js';

export interface ErrorContext {
  baseURL: string;
  timeoutMs: number;
  /** Removed from every message, whatever the server echoes back. */
  apiKey?: string | undefined;
}

const MAX_DETAIL = 500;

/** Hides secrets: the key itself, any bearer token, and credentials inside URLs. */
export function redact(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('***');
  return out.replace(/Bearer\s+[^\s"',]+/gi, 'Bearer ***').replace(/(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g, '$1***@');
}

/** Milliseconds from `retry-after-ms`, or `retry-after` given in seconds or as an HTTP date. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const ra = headers?.get('retry-after')?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Math.round(Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** One readable line out of an error body (JSON error message, or an HTML/text page). */
export function conciseDetail(raw: string): string {
  let text = raw;
  if (/<\/?[a-z!][^>]*>/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    text = title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

function httpDetail(e: APIError, body: string | undefined): string {
  const inner = e.error as { message?: unknown } | undefined;
  let raw: string | undefined;
  if (inner && typeof inner.message === 'string') raw = inner.message;
  else if (body?.trim()) raw = bodyMessage(body);
  else if (inner && typeof inner === 'object') raw = JSON.stringify(inner);
  else raw = e.message.replace(/^\d{3}\s*/, '');
  if (!raw || raw === 'status code (no body)') return STATUS_CODES[e.status ?? 0] ?? 'no error details in the response';
  return conciseDetail(raw);
}

/**
 * The message of an error body of any shape: OpenAI's `{error: {message}}`, Mistral's `{message}`,
 * FastAPI's `{detail: [{loc, msg}]}`, Gemini's `[{error: {…}}]`, a bare string; else the body itself.
 */
export function bodyMessage(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  return findMessage(json, 0) ?? body;
}

function findMessage(v: unknown, depth: number): string | undefined {
  if (depth > 5 || v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v || undefined;
  if (Array.isArray(v)) {
    const parts = v.map((x) => findMessage(x, depth + 1)).filter((x): x is string => !!x);
    return parts.length ? parts.join('; ') : undefined;
  }
  if (typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.msg === 'string' && Array.isArray(o.loc)) return `${o.loc.join('.')}: ${o.msg}`;
  for (const key of ['error', 'message', 'detail', 'msg', 'error_message', 'errors', 'title']) {
    const found = findMessage(o[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The provider's own error code (`tool_use_failed`, `invalid_api_key`) from a parsed or raw body. */
function providerCode(e: APIError, body: string | undefined): string | undefined {
  const code = (e.error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code;
  if (body?.includes('tool_use_failed')) return 'tool_use_failed';
  return undefined;
}

/** Codes and messages along an error's `cause` chain, e.g. `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1`. */
export function describeCause(e: unknown): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 5; depth++) {
    const err = cur as { code?: unknown; message?: unknown; cause?: unknown };
    const msg = typeof err.message === 'string' ? err.message : '';
    if (msg && msg !== 'fetch failed' && msg !== 'terminated' && msg !== 'Connection error.' && !parts.includes(msg)) parts.push(msg);
    else if (typeof err.code === 'string' && !parts.some((p) => p.includes(err.code as string))) parts.push(err.code);
    cur = err.cause;
  }
  return parts.join(': ') || 'unknown network error';
}

function isNetworkError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e.name === 'TypeError' && (e.message === 'terminated' || e.message === 'fetch failed')) return true;
  const code = (e as { code?: unknown }).code ?? (e.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^(E[A-Z]+|UND_ERR_\w+)$/.test(code);
}

/** Maps anything the SDK or fetch throws to adk's typed model errors. */
export function toModelError(e: unknown, ctx: ErrorContext, errorBody?: string): Error {
  const r = (s: string) => redact(s, ctx.apiKey);
  if (e instanceof AdkError) return e;
  if (e instanceof APIUserAbortError) return new CancelledError('model request cancelled');
  if (e instanceof APIConnectionTimeoutError) return new ModelTimeoutError(ctx.timeoutMs, 'request');
  if (e instanceof APIConnectionError) {
    return new ModelConnectionError(r(`cannot reach the model endpoint at ${ctx.baseURL}: ${describeCause(e.cause ?? e)}`), true);
  }
  if (e instanceof APIError) {
    if (typeof e.status === 'number') {
      const detail = r(httpDetail(e, errorBody)) + endpointHint(e.status, ctx.baseURL);
      if (/--jinja\b/.test(detail)) {
        // llama-server started without --jinja cannot take tools: the same request fails every time.
        const hint = ' (llama.cpp: restart llama-server with --jinja so it can take tools; asking again will not help)';
        return new ModelHttpError(e.status, detail + hint, undefined, { providerCode: 'llamacpp_needs_jinja', retryable: false });
      }
      return new ModelHttpError(e.status, detail, parseRetryAfter(e.headers), { providerCode: providerCode(e, errorBody) });
    }
    return streamReportedError(e.error, r);
  }
  if (e instanceof SyntaxError) {
    // A broken chunk is usually a glitch of a proxy or of one response, so one more attempt is worth it.
    return new ModelConnectionError(r(`the model endpoint sent invalid JSON: ${e.message}`), true);
  }
  if (isNetworkError(e)) {
    return new ModelConnectionError(r(`connection to the model endpoint was lost mid-response: ${describeCause(e)}`), true);
  }
  const message = e instanceof Error ? e.message : String(e);
  // Unknown failures (SDK invariants, a body that cannot be read) are not known to be transient.
  return new ModelConnectionError(r(`model request failed: ${message}`), false);
}

/** An `{"error": {...}}` event inside a stream (OpenRouter and others send these on upstream failures). */
export function streamReportedError(error: unknown, r: (s: string) => string): Error {
  const err = (error ?? {}) as { message?: unknown; code?: unknown };
  const detail = r(conciseDetail(typeof err.message === 'string' ? err.message : JSON.stringify(error ?? {})));
  const code = typeof err.code === 'number' ? err.code : Number.NaN;
  if (code >= 400 && code <= 599) return new ModelHttpError(code, detail);
  return new ModelConnectionError(`the model endpoint reported an error: ${detail}`, true);
}

/**
 * An error event without the `{error: …}` wrapper the SDK checks for: vLLM's and Mistral's
 * `{"object":"error","message":…,"type":…,"code":…}`, or any chunk with a message and no `choices`.
 */
export function unwrappedStreamError(raw: unknown): Record<string, unknown> | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (Array.isArray(o.choices)) return undefined;
  if (o.object === 'error' || (o.type === 'error' && typeof o.message === 'string')) return o;
  if (typeof o.message === 'string' && (o.code !== undefined || o.type !== undefined) && o.usage === undefined) return o;
  return undefined;
}

/**
 * A 200 with an HTML page means the base URL points at a website, login portal or proxy page rather than
 * an API: repeating the request gives the same page, so it is not retried.
 */
export function htmlResponseError(baseURL: string, contentType: string): ModelConnectionError {
  return new ModelConnectionError(
    redact(`the model endpoint at ${baseURL} answered with an HTML page (${contentType}) instead of an event stream or JSON; check the base URL (OPENAI_BASE_URL)`),
    false,
  );
}

/**
 * A 404 or 405 from a base URL that lacks the usual `/v1` (or points at Ollama's native `/api`) is
 * almost always a wrong endpoint, not a missing model.
 */
export function endpointHint(status: number, baseURL: string): string {
  if (status !== 404 && status !== 405) return '';
  const url = baseURL.replace(/\/+$/, '');
  if (/\/api$/.test(url)) return ` (this looks like Ollama's native API; use its OpenAI-compatible endpoint: ${url.replace(/\/api$/, '/v1')})`;
  if (!/\/v\d[\w.]*(\/openai)?$/.test(url) && !/\/openai(\/deployments\/[^/]+)?$/.test(url)) {
    return ` (OpenAI-compatible servers usually serve ${url}/v1: set base_url to that)`;
  }
  return '';
}
