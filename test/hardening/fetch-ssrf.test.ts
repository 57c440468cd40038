import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlTool } from '../../src/core/tools/builtin/fetch-url.js';
import { addressPolicy, parseAllowHosts } from '../../src/core/tools/net/address-policy.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer } from '../cli/helpers.js';
import { run } from '../tools/helpers.js';

// Issue 12, item 3: fetch_url (no approval) must not reach loopback or private networks.
let secret: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  secret = createServer((req, res) => {
    hits++;
    if (req.url === '/hop') {
      res.statusCode = 302;
      res.setHeader('location', `http://127.0.0.1:${port}/admin`);
      res.end();
      return;
    }
    res.end('internal admin page');
  });
  await new Promise<void>((r) => secret.listen(0, '127.0.0.1', r));
  port = (secret.address() as AddressInfo).port;
});
afterAll(async () => {
  secret.closeAllConnections();
  await new Promise((r) => secret.close(r));
});

describe('fetch_url refuses private destinations', () => {
  it('every textual form of loopback, and private, link-local, CGNAT, multicast and mapped addresses', async () => {
    const tool = fetchUrlTool({ timeoutMs: 2_000 });
    const urls = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://10.0.0.1:${port}/`,
      `http://192.168.1.1:${port}/`,
      `http://172.16.0.1:${port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://100.64.0.1/`,
      `http://224.0.0.1/`,
      `http://0.0.0.0:${port}/`,
      `http://[fe80::1]/`,
      `http://[fc00::1]/`,
      `http://[2002:7f00:1::]:${port}/`,
      `http://[64:ff9b::7f00:1]:${port}/`,
    ];
    for (const url of urls) {
      const r = await run(tool, { url });
      expect(r.isError, url).toBe(true);
      expect(r.content, url).toMatch(/refused to fetch .*: .* (loopback|private|link-local|carrier-grade NAT|multicast|unspecified|reserved)/);
    }
    expect(hits).toBe(0);
  });

  it('IPv6 ranges that are not globally reachable: local-use NAT64, site-local, IPv4-compatible, documentation, SRv6, dummy, discard', async () => {
    const tool = fetchUrlTool({ timeoutMs: 2_000 });
    const urls = [
      // RFC 8215 local-use NAT64 (its IPv4 may sit at any RFC 6052 offset): the whole /48 is refused.
      `http://[64:ff9b:1::7f00:1]:${port}/`,
      `http://[64:ff9b:1:7f00:1::]:${port}/`,
      `http://[64:ff9b:1::5db8:d822]/`,
      `http://[fec0::1]:${port}/`,
      `http://[::7f00:1]:${port}/`,
      `http://[3fff::1]/`,
      `http://[5f00::1]/`,
      `http://[100:0:0:1::1]/`,
      `http://[100::1]/`,
      `http://[2001:db8::1]/`,
      `http://[2001:2::1]/`,
      `http://[4000::1]/`,
    ];
    for (const url of urls) {
      const r = await run(tool, { url });
      expect(r.isError, url).toBe(true);
      expect(r.content, url).toMatch(/refused to fetch .*: .* (loopback|private|link-local|carrier-grade NAT|multicast|unspecified|reserved)/);
    }
    expect(hits).toBe(0);
    // The well-known NAT64 prefix still reaches a public IPv4 address, and global unicast passes.
    const p = addressPolicy();
    expect(p.refuse('v6only.test', '64:ff9b::5db8:d822', 443)).toBeUndefined();
    expect(p.refuse('example.com', '2a00:1450:4001:81b::200e', 443)).toBeUndefined();
  });

  it('a redirect to a private address is refused; an allow-listed local server works', async () => {
    const allowed = fetchUrlTool({ timeoutMs: 2_000, allowHosts: [`localhost:${port}`] });
    // The redirect goes to 127.0.0.1, which the allow-list (localhost:port) does not name.
    const viaRedirect = await run(allowed, { url: `http://localhost:${port}/hop` });
    expect(viaRedirect.content).toMatch(/refused to fetch .*127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
    expect(hits).toBe(1);
    const ok = await run(fetchUrlTool({ allowHosts: [`127.0.0.1:${port}`] }), { url: `http://127.0.0.1:${port}/admin` });
    expect(ok.isError).toBe(false);
    expect(ok.content).toContain('internal admin page');
    const cidr = await run(fetchUrlTool({ allowHosts: ['127.0.0.0/8'] }), { url: `http://127.0.0.1:${port}/admin` });
    expect(cidr.content).toContain('internal admin page');
    const wrongPort = await run(fetchUrlTool({ allowHosts: ['127.0.0.1:1'] }), { url: `http://127.0.0.1:${port}/admin` });
    expect(wrongPort.isError).toBe(true);
  });

  it('policy: public unicast passes; allow entries parse; bad entries are clear errors', () => {
    const p = addressPolicy();
    expect(p.refuse('example.com', '93.184.216.34', 80)).toBeUndefined();
    expect(p.refuse('example.com', '2606:2800:220:1:248:1893:25c8:1946', 443)).toBeUndefined();
    expect(p.refuse('evil.test', '::ffff:10.0.0.1', 80)).toMatch(/private-network/);
    expect(() => parseAllowHosts('10.0.0.0/99')).toThrow(/not a valid CIDR/);
  });
});

describe('through the CLI', () => {
  const server = useServer();
  it('the model asks for a loopback URL: the tool result is a refusal and the run completes; ADK_FETCH_ALLOW_HOSTS opens it', async () => {
    const home = tempHome();
    const cwd = tempDir('adk-ssrf-');
    const agents = `${tempDir('adk-ssrf-cfg-')}/agents.yaml`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(agents, 'version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Be brief., tools: [fetch_url] }\n');
    const before = hits;
    server().enqueue({ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: `http://127.0.0.1:${port}/admin` } }] }, { content: 'refused, fine' });
    const r = await expectExit(['run', '--agents', agents, '--json', 'fetch it'], 0, { env: serverEnv(server(), 'test-key-123456', home), cwd });
    expect(ofType(r.lines, 'tool_result')[0]).toMatchObject({ isError: true, content: expect.stringContaining('loopback') });
    expect(hits).toBe(before);
    server().enqueue({ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: `http://127.0.0.1:${port}/admin` } }] }, { content: 'got it' });
    // A list, as the README writes it (commas and spaces): each entry is read (issue 29).
    const ok = await expectExit(['run', '--agents', agents, '--json', 'fetch it'], 0, { env: { ...serverEnv(server(), 'test-key-123456', home), ADK_FETCH_ALLOW_HOSTS: `localhost:8080, 127.0.0.1:${port},10.0.0.0/8` }, cwd });
    expect(ofType(ok.lines, 'tool_result')[0].content).toContain('internal admin page');
  });
});

// A review of this stop's deny rules: a fetch_url deny rule was asked about the URL the model gave,
// and a redirect from an allowed page to a denied one was followed.
describe('fetch_url and the run’s deny rules', () => {
  it('a redirect to a denied URL is refused; the denied page is never fetched', async () => {
    const { createServer } = await import('node:http');
    const { fakeCtx } = await import('../tools/helpers.js');
    const { parseAllowRule, ruleDenies } = await import('../../src/core/agents/allow-rules.js');
    const hits: string[] = [];
    const site = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/start') res.writeHead(302, { location: '/tasks/t1/solution.sh' }).end();
      else res.end('the solution');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const deny = parseAllowRule(`fetch_url(${origin}/tasks/t1*)`) as Exclude<ReturnType<typeof parseAllowRule>, string>;
    const approvalPolicy = { allows: () => true, refuses: (c: { tool: string; arguments: unknown }) => (ruleDenies(deny, c.tool, c.arguments) ? 'A deny rule forbids this fetch_url call.' : undefined) };
    const tool = fetchUrlTool({ timeoutMs: 2_000, allowHosts: [origin.replace('http://', '')] });
    try {
      const out = await tool.execute({ url: `${origin}/start` }, fakeCtx({ runContext: { approvalPolicy } as never }));
      expect(typeof out === 'string' ? out : out.content).toMatch(/refused to fetch .*\/start: it redirects to .*\/tasks\/t1\/solution\.sh, which is refused \(A deny rule forbids this fetch_url call\)/);
      expect(hits).toEqual(['/start']);
    } finally {
      site.close();
    }
  });
});
