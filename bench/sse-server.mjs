// A tiny OpenAI-compatible Chat Completions server for W6: streams a short reply as SSE, no latency.
import http from 'node:http';

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'bench-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const REPLY = ['Hello', ' from', ' the', ' bench', ' server', '.'];

function answer(req, res, body) {
  if (req.method === 'GET' && req.url.startsWith('/v1/models')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model', created: 0, owned_by: 'bench' }] }));
  }
  if (req.method !== 'POST' || !req.url.startsWith('/v1/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ error: { message: `no route for ${req.method} ${req.url}`, type: 'invalid_request_error' } }));
  }
  const text = REPLY.join('');
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 0,
        model: 'bench-model',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: REPLY.length, total_tokens: REPLY.length + 1 },
      }),
    );
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  for (const piece of REPLY) res.write(chunk({ content: piece }));
  res.write(chunk({}, 'stop'));
  if (body.stream_options?.include_usage) {
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench-model', choices: [], usage: { prompt_tokens: 1, completion_tokens: REPLY.length, total_tokens: REPLY.length + 1 } })}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

/** Starts the server on a free port; resolves to { url (with /v1), requests, close() }. */
export async function startSseServer() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      requests++;
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        /* answered as a non-streaming request */
      }
      answer(req, res, body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
