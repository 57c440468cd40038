import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** One scripted answer to one POST /v1/messages, streamed in Anthropic's SSE event format. */
export interface AnthropicReply {
  thinking?: { text: string; signature: string };
  redactedThinking?: string;
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; input: object }>;
  /** Default `tool_use` with tool calls, else `end_turn`. */
  stopReason?: string;
  usage?: { input_tokens: number; output_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
  /** Answer with this status and Anthropic's error body. */
  status?: number;
  errorType?: string;
  /** The error's message (default `scripted <status>`). */
  errorMessage?: string;
  /** Send an `error` event after message_start (Anthropic does this when overloaded mid-stream). */
  errorEvent?: { type: string; message: string };
  /** Characters per delta. */
  chunkSize?: number;
  /** Stream these `[event, data]` pairs verbatim (a recorded capture) instead of building them. */
  events?: Array<[string, unknown]>;
}

export interface AnthropicRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface AnthropicTestServer {
  readonly url: string;
  readonly requests: AnthropicRequest[];
  enqueue(...replies: AnthropicReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

const split = (s: string, n: number): string[] => {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [''];
};

/** What the real API refuses: roles that do not alternate, unanswered tool uses, thinking dropped from a tool loop. */
function invalid(body: any): string | undefined {
  const msgs = body?.messages;
  if (!Array.isArray(msgs) || !msgs.length) return 'messages: at least one message is required';
  if (msgs[0].role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 1; i < msgs.length; i++) if (msgs[i].role === msgs[i - 1].role) return `messages: roles must alternate between "user" and "assistant" (index ${i})`;
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (!Array.isArray(m.content) || !m.content.length) return `messages.${i}: content must be a non-empty list of blocks`;
    const uses = m.role === 'assistant' ? m.content.filter((b: any) => b.type === 'tool_use').map((b: any) => b.id) : [];
    if (uses.length) {
      const next = msgs[i + 1];
      const answered = new Set((next?.content ?? []).filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id));
      for (const id of uses) if (next && !answered.has(id)) return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${id}`;
      if (body.thinking?.type === 'enabled' && m.content[0].type !== 'thinking' && m.content[0].type !== 'redacted_thinking') {
        return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${m.content[0].type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`;
      }
      for (const b of m.content) if (b.type === 'thinking' && !b.signature) return `messages.${i}: thinking block without signature`;
    }
  }
  return undefined;
}

function events(reply: AnthropicReply, model: string): Array<[string, unknown]> {
  const size = reply.chunkSize ?? 4;
  const usage = reply.usage ?? { input_tokens: 20, output_tokens: 10 };
  const out: Array<[string, unknown]> = [];
  out.push(['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model, stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }]);
  out.push(['ping', { type: 'ping' }]);
  if (reply.errorEvent) {
    out.push(['error', { type: 'error', error: reply.errorEvent }]);
    return out;
  }
  let index = 0;
  if (reply.thinking) {
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
    for (const t of split(reply.thinking.text, size)) out.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: t } }]);
    out.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: reply.thinking.signature } }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  if (reply.redactedThinking) {
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: reply.redactedThinking } }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  if (reply.text) {
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
    for (const t of split(reply.text, size)) out.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  for (const [i, c] of (reply.toolCalls ?? []).entries()) {
    out.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id ?? `toolu_${i}${Date.now()}`, name: c.name, input: {} } }]);
    for (const t of split(JSON.stringify(c.input), size)) out.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: t } }]);
    out.push(['content_block_stop', { type: 'content_block_stop', index }]);
    index++;
  }
  const stop = reply.stopReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn');
  out.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }]);
  out.push(['message_stop', { type: 'message_stop' }]);
  return out;
}

function wholeMessage(reply: AnthropicReply, model: string): unknown {
  const content: unknown[] = [];
  if (reply.thinking) content.push({ type: 'thinking', thinking: reply.thinking.text, signature: reply.thinking.signature });
  if (reply.text) content.push({ type: 'text', text: reply.text });
  for (const [i, c] of (reply.toolCalls ?? []).entries()) content.push({ type: 'tool_use', id: c.id ?? `toolu_${i}`, name: c.name, input: c.input });
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.stopReason ?? (reply.toolCalls?.length ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: reply.usage ?? { input_tokens: 20, output_tokens: 10 },
  };
}

/** A local server that speaks Anthropic's Messages API: SSE events, error events, its validation and error bodies. */
export async function startAnthropicServer(): Promise<AnthropicTestServer> {
  const requests: AnthropicRequest[] = [];
  let queue: AnthropicReply[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => void handle(req, res));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const sendError = (res: ServerResponse, status: number, type: string, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
    res.end(JSON.stringify({ type: 'error', error: { type, message } }));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const d of req) parts.push(d as Buffer);
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8') || 'null');
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ path: req.url ?? '/', headers: req.headers, body });
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ data: [{ type: 'model', id: 'claude-test-1', display_name: 'Claude Test', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: 'claude-test-1', last_id: 'claude-test-1' }));
    }
    if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, 404, 'not_found_error', `no route ${req.method} ${path}`);
    if (!req.headers['x-api-key']) return sendError(res, 401, 'authentication_error', 'x-api-key header is required');
    if (!req.headers['anthropic-version']) return sendError(res, 400, 'invalid_request_error', 'anthropic-version header is required');
    const broken = invalid(body);
    if (broken) return sendError(res, 400, 'invalid_request_error', broken);
    const reply = queue.shift();
    if (!reply) return sendError(res, 500, 'api_error', `anthropic test server: no scripted reply for request #${requests.length}`);
    if (reply.status) return sendError(res, reply.status, reply.errorType ?? 'api_error', reply.errorMessage ?? `scripted ${reply.status}`);
    const model = String(body.model);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(wholeMessage(reply, model)));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const [event, data] of reply.events ?? events(reply, model)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...r) => void queue.push(...r),
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function useAnthropicServer(bind: (s: AnthropicTestServer) => void): void {
  let s: AnthropicTestServer | undefined;
  beforeAll(async () => {
    s = await startAnthropicServer();
    bind(s);
  });
  afterAll(() => s?.close());
  beforeEach(() => s?.reset());
}
