import { afterAll, beforeAll, beforeEach } from 'vitest';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HTML_PAGE, completionBody, errorBody, streamEvents, type ReplyContext, type ServerReply } from './openai-server-replies.js';

export type { ServerReply, ServerToolCall, ServerUsage } from './openai-server-replies.js';

export interface RecordedRequest {
  method: string;
  /** Path including the query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: any;
  /** True once the client closed the connection before the response was complete. */
  aborted: boolean;
  /** When it arrived (performance.now() of this process). */
  at?: number;
}

/** Answers a chat request dynamically; returning undefined answers with a 500 "no reply" error. */
export type ReplyHandler = (request: RecordedRequest, index: number) => ServerReply | undefined | Promise<ServerReply | undefined>;

export interface OpenAIServerOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
}

export interface OpenAITestServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:53121/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (any path). */
  readonly requests: RecordedRequest[];
  /** Only the POST /v1/chat/completions requests. */
  readonly chatRequests: RecordedRequest[];
  /** Chat requests whose client closed the connection before the response was complete. */
  readonly abortedRequests: number;
  /** Chat requests still being answered. */
  readonly openRequests: number;
  /** Scripted replies not yet consumed. */
  readonly pendingReplies: number;
  /** Queue replies; each POST /v1/chat/completions consumes one, in order. */
  enqueue(...replies: ServerReply[]): void;
  /** Answers requests once the queue is empty. */
  onRequest(handler: ReplyHandler | undefined): void;
  /** Resolves once `abortedRequests >= count`; rejects after `timeoutMs`. */
  waitForAborted(count?: number, timeoutMs?: number): Promise<void>;
  /** What `GET /v1/models` lists (vLLM's `max_model_len`, LM Studio's `max_context_length`, …); reset restores the plain list. */
  setModels(entries: Array<Record<string, unknown>>): void;
  /** Answers `POST /api/show` (Ollama's native model info); undefined: 404. */
  setOllamaShow(body: unknown): void;
  /** Holds each `GET /v1/models` answer this long (a slow server); reset restores 0. */
  setModelsDelay(ms: number): void;
  /** When each `GET /v1/models` answer was sent (performance.now() of this process), in order. */
  readonly modelsAnsweredAt: number[];
  /** Clears the queue, the handler and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local OpenAI-compatible Chat Completions server that streams SSE exactly like OpenAI. */
export async function startOpenAIServer(options: OpenAIServerOptions = {}): Promise<OpenAITestServer> {
  const requests: RecordedRequest[] = [];
  let queue: ServerReply[] = [];
  let handler: ReplyHandler | undefined;
  let chatIndex = 0;
  let models: Array<Record<string, unknown>> | undefined;
  let modelsDelayMs = 0;
  const modelsAnsweredAt: number[] = [];
  let ollamaShow: unknown;
  let aborted = 0;
  let open = 0;
  let closing = false;
  const abortWaiters = new Set<() => void>();
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody(500, `test server crashed: ${String(e)}`)));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, aborted: false, at: performance.now() };
    requests.push(rec);
    const path = rec.path.split('?')[0];

    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    }
    if (req.method === 'GET' && path === '/v1/models') {
      if (modelsDelayMs) await sleep(modelsDelayMs);
      modelsAnsweredAt.push(performance.now());
      return sendJson(res, 200, { object: 'list', data: models ?? [{ id: 'test-model', object: 'model', created: 0, owned_by: 'test' }] });
    }
    if (req.method === 'POST' && path === '/api/show') {
      return ollamaShow === undefined ? sendJson(res, 404, { error: 'not found' }) : sendJson(res, 200, ollamaShow as object);
    }
    if (req.method !== 'POST' || !isChatPath(path)) {
      return sendJson(res, 404, errorBody(404, `no route for ${req.method} ${path}`));
    }
    if (!body || !Array.isArray(body.messages)) return sendJson(res, 400, errorBody(400, 'body must be JSON with a messages array'));

    const index = chatIndex++;
    open++;
    // A response closed before it finished, not by us, means the client aborted.
    let ours = false;
    res.on('close', () => {
      open--;
      if (res.writableFinished || ours || closing) return;
      rec.aborted = true;
      aborted++;
      for (const w of [...abortWaiters]) w();
    });
    const gone = () => res.destroyed || closing;

    const reply = queue.length ? queue.shift()! : await handler?.(rec, index);
    if (!reply) return sendJson(res, 500, errorBody(500, `openai test server: no scripted reply for request #${index + 1}`));

    if (reply.delayMs) await sleep(reply.delayMs);
    if (gone()) return;
    if (reply.hang === 'before-headers') return; // the socket stays open until the client or close() ends it
    const extra = reply.headers ?? {};
    if (reply.status && reply.status >= 400) {
      if (typeof reply.errorBody === 'string') {
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...extra });
        return void res.end(reply.errorBody);
      }
      return sendJson(res, reply.status, (reply.errorBody as object | undefined) ?? errorBody(reply.status, reply.errorMessage), extra);
    }
    if (reply.html) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...extra });
      return void res.end(HTML_PAGE);
    }

    if (reply.json !== undefined) return sendJson(res, 200, reply.json as object, extra);
    if (reply.sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...extra });
      res.flushHeaders();
      for (const [i, text] of reply.sse.entries()) {
        if (i > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
        if (gone()) return;
        await write(res, text);
      }
      return void res.end();
    }

    const ctx: ReplyContext = { model: String(body.model ?? 'test-model'), requestIndex: index, promptChars: JSON.stringify(body.messages).length };
    // The reset comes a moment after the last event has reached the client, as when a peer dies mid-stream.
    const destroy = async () => {
      ours = true;
      await flushed(res);
      await sleep(reply.chunkDelayMs ?? 10);
      res.socket?.destroy();
    };

    if (!body.stream) {
      const text = reply.invalidJsonChunk ? '{"id": "chatcmpl-broken", "choices": [' : JSON.stringify(completionBody(reply, ctx));
      res.writeHead(200, { 'content-type': 'application/json', ...extra });
      if (reply.resetAfterChunks !== undefined || reply.hang === 'after-first-chunk') {
        res.write(text.slice(0, Math.floor(text.length / 2)));
        if (reply.hang) return;
        return await destroy();
      }
      return void res.end(reply.truncate ? text.slice(0, Math.floor(text.length / 2)) : text);
    }

    const events = streamEvents(reply, ctx, body.stream_options?.include_usage === true);
    const headers: Record<string, string> = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...extra };
    if (reply.truncate) headers.connection = 'close';
    res.writeHead(200, headers);
    res.flushHeaders();
    let sent = 0;
    for (const ev of events) {
      if (reply.resetAfterChunks !== undefined && sent >= reply.resetAfterChunks) return await destroy();
      if (reply.truncate && ev.kind !== 'delta') return void res.end();
      if (reply.invalidJsonChunk && sent === 1) {
        await write(res, 'data: {"id":"chatcmpl-broken","choices":[{"delta":{"content":"oops\n\n');
        return void res.end();
      }
      if (sent > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      if (gone()) return;
      await write(res, `data: ${ev.data}\n\n`);
      sent++;
      if (reply.hang === 'after-first-chunk') return;
    }
    if (reply.resetAfterChunks !== undefined) return await destroy();
    if (reply.truncate) return void res.end();
    await write(res, 'data: [DONE]\n\n');
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get chatRequests() {
      return requests.filter((r) => r.method === 'POST' && isChatPath(r.path.split('?')[0]!));
    },
    get abortedRequests() {
      return aborted;
    },
    get openRequests() {
      return open;
    },
    get pendingReplies() {
      return queue.length;
    },
    enqueue(...replies) {
      queue.push(...replies);
    },
    onRequest(h) {
      handler = h;
    },
    waitForAborted(count = 1, timeoutMs = 5000) {
      if (aborted >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (aborted < count) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`expected ${count} aborted request(s) within ${timeoutMs} ms, saw ${aborted}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          abortWaiters.delete(check);
        };
        abortWaiters.add(check);
      });
    },
    setModels(entries) {
      models = entries;
    },
    setOllamaShow(body) {
      ollamaShow = body;
    },
    setModelsDelay(ms) {
      modelsDelayMs = ms;
    },
    modelsAnsweredAt,
    reset() {
      models = undefined;
      modelsDelayMs = 0;
      modelsAnsweredAt.length = 0;
      ollamaShow = undefined;
      queue = [];
      chatIndex = 0;
      aborted = 0;
      handler = undefined;
      requests.length = 0;
    },
    close() {
      closing = true;
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** OpenAI's path, and Azure's classic deployment path. */
const isChatPath = (path: string) => path === '/v1/chat/completions' || /^\/openai\/deployments\/[^/]+\/chat\/completions$/.test(path);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Resolves once everything written so far has been handed to the operating system. */
function flushed(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => (!res.socket || res.socket.destroyed || res.socket.writableLength === 0 ? resolve() : setTimeout(check, 1));
    check();
  });
}

/** Writes and waits for the socket to drain, so large benchmark replies respect backpressure. */
function write(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  if (res.write(text)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * One server for a test file, cleared between tests and closed after them. `bind` receives it once
 * it is listening: `let server: OpenAITestServer; useOpenAIServer((s) => (server = s));`
 */
export function useOpenAIServer(bind: (server: OpenAITestServer) => void, options?: OpenAIServerOptions): void {
  let server: OpenAITestServer | undefined;
  beforeAll(async () => {
    server = await startOpenAIServer(options);
    bind(server);
  });
  afterAll(() => server?.close());
  beforeEach(() => server?.reset());
}
