/** Pure builders for the bodies the local OpenAI-compatible server sends (see openai-server.ts). */

export interface ServerToolCall {
  /** Default `call_<request>_<index>`. */
  id?: string;
  name: string;
  /** An object is serialized to JSON; a string is sent as is (e.g. malformed JSON). */
  arguments: string | object;
}

/** Token counts in our own (camelCase) shape; estimated from the request when omitted. */
export interface ServerUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens?: number;
}

/** One scripted answer to one POST /v1/chat/completions. */
export interface ServerReply {
  content?: string;
  /** Sent as the non-standard `reasoning_content` (DeepSeek, vLLM, Ollama). */
  reasoning?: string;
  toolCalls?: ServerToolCall[];
  usage?: ServerUsage;
  /** Default `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Characters per SSE chunk for text and tool arguments; default 3 for text, 5 for arguments. */
  chunkSize?: number;
  /** Wait between SSE events. */
  chunkDelayMs?: number;
  /** Wait before sending headers. */
  delayMs?: number;
  /** Answer with this HTTP status and an OpenAI-style JSON error body. */
  status?: number;
  /** Message in the error body when `status` is set. */
  errorMessage?: string;
  /** The whole error body when `status` is set, in the provider's own shape (a string is sent as text). */
  errorBody?: unknown;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** Never finish: stall before the headers or right after the first SSE event. */
  hang?: 'before-headers' | 'after-first-chunk';
  /** Destroy the socket after this many SSE events (0 = right after the headers). */
  resetAfterChunks?: number;
  /** Answer 200 with an HTML page instead of SSE/JSON (a wrong base URL, a login portal). */
  html?: true;
  /** Send one SSE event (after the first) whose data is not JSON, then end the response. */
  invalidJsonChunk?: true;
  /** Send the content and tool-call deltas, then end without finish_reason, usage or [DONE]. */
  truncate?: true;
  /** Cut the last character off every tool call's arguments so the JSON never closes. */
  unclosedToolArgs?: true;
  /** Stream these strings verbatim instead of the generated events (comments, error events, no finish_reason…). */
  sse?: string[];
  /** Answer 200 with this JSON body, even to a streaming request (servers that ignore `stream: true`). */
  json?: unknown;
}

export interface ReplyContext {
  model: string;
  requestIndex: number;
  /** Characters of the request's messages, for estimated usage. */
  promptChars: number;
}

export type SseEventKind = 'delta' | 'finish' | 'usage';
export interface SseEvent {
  kind: SseEventKind;
  data: string;
}

interface ResolvedCall {
  id: string;
  name: string;
  args: string;
}

function resolveCalls(reply: ServerReply, ctx: ReplyContext): ResolvedCall[] {
  return (reply.toolCalls ?? []).map((c, i) => {
    let args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
    if (reply.unclosedToolArgs && args.length > 0) args = args.slice(0, -1);
    return { id: c.id ?? `call_${ctx.requestIndex}_${i}`, name: c.name, args };
  });
}

function finishReason(reply: ServerReply): string {
  return reply.finishReason ?? (reply.toolCalls?.length ? 'tool_calls' : 'stop');
}

function usageOf(reply: ServerReply, ctx: ReplyContext, calls: ResolvedCall[]) {
  const out = (reply.content ?? '').length + (reply.reasoning ?? '').length + calls.reduce((n, c) => n + c.args.length, 0);
  const prompt = reply.usage?.promptTokens ?? Math.ceil(ctx.promptChars / 4);
  const completion = reply.usage?.completionTokens ?? Math.ceil(out / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: reply.usage?.totalTokens ?? prompt + completion };
}

export function split(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The SSE events of a streamed reply, in OpenAI's order, without the final `[DONE]`. */
export function streamEvents(reply: ServerReply, ctx: ReplyContext, includeUsage: boolean): SseEvent[] {
  const id = `chatcmpl-test-${ctx.requestIndex}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: object, finish: string | null = null) =>
    JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: ctx.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const events: SseEvent[] = [];
  const delta = (d: object) => events.push({ kind: 'delta', data: chunk(d) });
  const calls = resolveCalls(reply, ctx);

  delta({ role: 'assistant', content: reply.content || !calls.length ? '' : null, refusal: null });
  for (const piece of split(reply.reasoning ?? '', reply.chunkSize ?? 3)) delta({ reasoning_content: piece });
  for (const piece of split(reply.content ?? '', reply.chunkSize ?? 3)) delta({ content: piece });

  // Headers of every call first, then argument fragments round-robin, so calls interleave by index.
  const fragments = calls.map((c) => split(c.args, reply.chunkSize ?? 5));
  calls.forEach((c, index) =>
    delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
  );
  const rounds = Math.max(0, ...fragments.map((f) => f.length));
  for (let r = 0; r < rounds; r++) {
    fragments.forEach((f, index) => {
      if (r < f.length) delta({ tool_calls: [{ index, function: { arguments: f[r] } }] });
    });
  }

  events.push({ kind: 'finish', data: chunk({}, finishReason(reply)) });
  if (includeUsage) {
    events.push({
      kind: 'usage',
      data: JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: ctx.model,
        system_fingerprint: null,
        choices: [],
        usage: usageOf(reply, ctx, calls),
      }),
    });
  }
  return events;
}

/** A non-streaming `chat.completion` body. */
export function completionBody(reply: ServerReply, ctx: ReplyContext): object {
  const calls = resolveCalls(reply, ctx);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.content ?? (calls.length ? null : ''),
    refusal: null,
  };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (calls.length) {
    message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
  }
  return {
    id: `chatcmpl-test-${ctx.requestIndex}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: ctx.model,
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: usageOf(reply, ctx, calls),
  };
}

export function errorBody(status: number, message?: string): object {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message: message ?? `test server error (HTTP ${status})`, type, param: null, code: null } };
}

export const HTML_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body><h1>Please sign in</h1><p>This is not an API.</p></body></html>\n';
