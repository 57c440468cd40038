import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlTool } from '../../src/core/tools/builtin/fetch-url.js';
import { htmlToText } from '../../src/core/tools/builtin/html-to-text.js';
import { fakeCtx, run } from './helpers.js';

/** The test server is on loopback, which fetch_url refuses unless allowed. */
const LOCAL = ['127.0.0.1'];
let server: Server;
let base: string;
const methods: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    methods.push(req.method ?? '');
    switch (req.url) {
      case '/page':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<!doctype html><html><head><title>Test &amp; Page</title><style>.x{color:red}</style></head>' +
            '<body><script>alert(1)</script><h1>Hello</h1><p>First&nbsp;para &lt;b&gt;</p><ul><li>one</li><li>two</li></ul></body></html>',
        );
        return;
      case '/json':
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
        return;
      case '/big':
        res.setHeader('content-type', 'text/plain');
        res.end('a'.repeat(3 * 1024 * 1024));
        return;
      case '/hang':
        res.setHeader('content-type', 'text/plain');
        res.write('partial');
        return; // never ends
      case '/missing':
        res.statusCode = 404;
        res.end('not here');
        return;
      case '/redirect':
        res.statusCode = 302;
        res.setHeader('location', '/json');
        res.end();
        return;
      case '/image':
        res.setHeader('content-type', 'image/png');
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
        return;
      default:
        res.end('plain text');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('fetch_url', () => {
  const tool = fetchUrlTool({ timeoutMs: 1_000, allowHosts: LOCAL });

  it('GETs a page, reports the status and reduces HTML to text', async () => {
    const r = await run(tool, { url: `${base}/page` });
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/^HTTP 200 OK\ncontent-type: text\/html; charset=utf-8\n\n/);
    expect(r.content).toContain('Test & Page');
    expect(r.content).toContain('# Hello');
    expect(r.content).toContain('First para <b>');
    expect(r.content).toContain('- one\n- two');
    expect(r.content).not.toContain('alert');
    expect(r.content).not.toContain('color:red');
    expect(methods.every((m) => m === 'GET')).toBe(true);
  });

  it('follows redirects and shows the final URL; keeps JSON as is', async () => {
    const r = await run(tool, { url: `${base}/redirect` });
    expect(r.content).toBe(`HTTP 200 OK\nurl: ${base}/json\ncontent-type: application/json\n\n{"ok":true}`);
  });

  it('caps the body size with a note', async () => {
    const r = await run(tool, { url: `${base}/big` });
    expect(r.content).toMatch(/\[truncated: only the first 1\.0 MB of the response was read\]$/);
    expect(r.content.length).toBeLessThan(1024 * 1024 + 500);
    const small = await run(fetchUrlTool({ maxBytes: 10, allowHosts: LOCAL }), { url: `${base}/big` });
    expect(small.content).toMatch(/\n\naaaaaaaaaa\n\[truncated: only the first 10 B/);
  });

  it('times out on a server that never finishes', async () => {
    const r = await run(fetchUrlTool({ timeoutMs: 300, allowHosts: LOCAL }), { url: `${base}/hang` });
    expect(r.isError).toBe(true);
    expect(r.content).toBe(`Error: fetching ${base}/hang timed out after 300 ms`);
  });

  it('marks HTTP errors, hides binary bodies', async () => {
    const missing = await run(tool, { url: `${base}/missing` });
    expect(missing.isError).toBe(true);
    expect(missing.content).toMatch(/^HTTP 404 Not Found\n[\s\S]*not here$/);
    expect((await run(tool, { url: `${base}/image` })).content).toMatch(/binary content, 7 B read; not shown/);
  });

  it('refuses non-http schemes and bad URLs', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'data:text/plain,hi']) {
      const r = await run(tool, { url });
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/only http and https URLs/);
    }
    expect((await run(tool, { url: 'not a url' })).content).toMatch(/is not a valid URL/);
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect((await run(tool, { url: `http://127.0.0.1:${port}/` })).content).toMatch(/failed: .*ECONNREFUSED/);
  });

  it('throws (cancels) when the run is cancelled', async () => {
    const ctrl = new AbortController();
    const p = tool.execute({ url: `${base}/hang` }, fakeCtx({ signal: ctrl.signal }));
    setTimeout(() => ctrl.abort(), 50);
    await expect(p).rejects.toThrow(/cancelled/);
  });
});

describe('htmlToText', () => {
  it('decodes entities and drops comments', async () => {
    expect(await htmlToText('<p>a &#65;&#x42; &quot;q&quot;<!-- hidden --></p><p>b</p>')).toBe('a AB "q"\n\nb');
  });
});
