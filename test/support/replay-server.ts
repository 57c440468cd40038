import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** A recorded stream of test/fixtures/recorded/vercel-ai: one JSON event per line. */
export function recorded(name: string): Array<Record<string, any>> {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/recorded/vercel-ai', name);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

export interface ReplayRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One scripted answer: a status, headers and the body's pieces, written in order. */
export interface ReplayAnswer {
  status?: number;
  headers?: Record<string, string>;
  chunks: Array<string | Uint8Array>;
}

export interface ReplayServer {
  readonly url: string;
  readonly requests: ReplayRequest[];
  enqueue(...answers: ReplayAnswer[]): void;
}

/** A local HTTP server answering each request with the next enqueued answer (500 when none is left). */
export function useReplayServer(set: (s: ReplayServer) => void): void {
  const queue: ReplayAnswer[] = [];
  const requests: ReplayRequest[] = [];
  const sockets = new Set<Socket>();
  let url = '';
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Kept as text.
      }
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const a = queue.shift();
      if (!a) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no answer enqueued"}}');
        return;
      }
      res.writeHead(a.status ?? 200, a.headers ?? {});
      for (const c of a.chunks) res.write(c);
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    queue.length = 0;
    requests.length = 0;
  });
  set({
    get url() {
      return url;
    },
    requests,
    enqueue: (...answers) => queue.push(...answers),
  });
}

/** Events as OpenAI's SSE: `event:` and `data:` lines. */
export function responsesSse(events: Array<Record<string, unknown>>): ReplayAnswer {
  return { headers: { 'content-type': 'text/event-stream' }, chunks: events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`) };
}

/** Responses as Gemini's `streamGenerateContent?alt=sse`: `data:` lines. */
export function geminiSse(responses: Array<Record<string, unknown>>): ReplayAnswer {
  return { headers: { 'content-type': 'text/event-stream' }, chunks: responses.map((r) => `data: ${JSON.stringify(r)}\r\n\r\n`) };
}
