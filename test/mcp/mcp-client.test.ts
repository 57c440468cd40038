import { spawn, type ChildProcess } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServerPool, type McpServerConfig } from '../../src/core/tools/mcp.js';
import { mcpFetch } from '../../src/core/tools/mcp-http-fetch.js';
import { openBrowser } from '../../src/core/tools/mcp-oauth/browser.js';
import type { ToolContext } from '../../src/core/tools/tool.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../support/mcp-http-server.js';

// Issue 30: adk's MCP client against servers nobody here wrote (@modelcontextprotocol/server-everything,
// over stdio, streamable HTTP and legacy SSE) and one written with the SDK's server package.
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

function context(events: unknown[] = []): ToolContext {
  return {
    signal: new AbortController().signal,
    callId: `call_${Math.random().toString(36).slice(2)}`,
    agentName: 'a',
    runPath: ['a'],
    sessionValues: {},
    options: {},
    resume: { wasInterrupted: false, isResumeTarget: false, hasData: false },
    interrupt: () => {
      throw new Error('no interrupts here');
    },
    sendAction: () => {},
    emit: (e) => void events.push(e),
  };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** server-everything over HTTP (`streamableHttp` or `sse`) on a free port, once it listens. */
async function everythingOverHttp(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${err}`)), 15_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (/listening|running on port/i.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { port, child };
}

const pools: McpServerPool[] = [];
const children: ChildProcess[] = [];
const pool = (servers: Record<string, McpServerConfig>, opts: ConstructorParameters<typeof McpServerPool>[1] = {}) => {
  const p = new McpServerPool(servers, opts);
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('server-everything over stdio', () => {
  const servers = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } };

  it('calls its tools, passes structured content on, shows progress and reads the resources it links', async () => {
    const p = pool(servers);
    const tools = await p.toolsFor('everything');
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...['echo', 'get-sum', 'get-structured-content', 'trigger-long-running-operation', 'get-resource-links'].map((n) => `mcp__everything__${n}`), 'everything_read_resource']));

    expect((await p.call('everything', 'get-sum', { a: 2, b: 3 }, context())).content).toMatch(/\b5\b/);

    const structured = await p.call('everything', 'get-structured-content', { location: 'New York' }, context());
    expect(structured.structured).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) });
    expect(structured.content).toContain('temperature');

    const events: any[] = [];
    const long = await p.call('everything', 'trigger-long-running-operation', { duration: 1, steps: 3 }, context(events));
    expect(long.isError).toBeFalsy();
    const tails = events.map((e) => e.output?.custom).filter((c) => c?.type === 'tool_output').map((c) => c.tail);
    expect(tails.length).toBeGreaterThanOrEqual(2);
    expect(tails.at(-1)).toMatch(/\(\d\/3\)/);

    const links = await p.call('everything', 'get-resource-links', { count: 2 }, context());
    const uri = /\[resource link: (\S+)/.exec(links.content)?.[1];
    expect(links.content).toContain('everything_read_resource');
    expect(uri).toMatch(/^demo:\/\//);
    const reader = tools.find((t) => t.name === 'everything_read_resource')!;
    const read = await reader.execute({ uri: uri! }, context());
    expect(typeof read === 'string' ? read : read.content).not.toMatch(/^Error/);
  });

  it('lists resources and prompts and reads them', async () => {
    const p = pool(servers);
    const resources = await p.listResources('everything');
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => typeof r.uri === 'string')).toBe(true);
    const text = await p.readResource('everything', 'demo://resource/dynamic/text/1');
    expect(text.length).toBeGreaterThan(0);
    const prompts = (await p.listPrompts('everything')).map((x) => x.name);
    expect(prompts).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
    expect(await p.getPrompt('everything', 'args-prompt', { city: 'Paris' })).toContain('Paris');
  });
});

describe('remote servers', () => {
  let http: McpHttpTestServer;
  beforeAll(async () => {
    http = await startMcpHttpServer();
  });
  afterAll(() => http.close());

  it('server-everything over streamable HTTP', async () => {
    const { port, child } = await everythingOverHttp('streamableHttp');
    children.push(child);
    const p = pool({ remote: { url: `http://127.0.0.1:${port}/mcp` } });
    expect((await p.toolsFor('remote')).map((t) => t.name)).toContain('mcp__remote__get-sum');
    expect((await p.call('remote', 'echo', { message: 'over http' }, context())).content).toContain('over http');
  });

  it('server-everything over legacy HTTP+SSE: named, and found by falling back from streamable HTTP', async () => {
    const { port, child } = await everythingOverHttp('sse');
    children.push(child);
    const named = pool({ old: { url: `http://127.0.0.1:${port}/sse`, transport: 'sse' } });
    await named.toolsFor('old');
    expect((await named.call('old', 'echo', { message: 'over sse' }, context())).content).toContain('over sse');
    const fallback = pool({ old: { url: `http://127.0.0.1:${port}/sse` } });
    await fallback.toolsFor('old');
    expect((await fallback.call('old', 'echo', { message: 'fell back' }, context())).content).toContain('fell back');
  });

  it('sends the configured headers, honours tools/list_changed and shows progress', async () => {
    const p = pool({ mine: { url: http.url, headers: { Authorization: 'Bearer header-secret-123456' } } });
    await p.toolsFor('mine');
    expect((await p.call('mine', 'whoami', {}, context())).content).toBe('auth: Bearer header-secret-123456');
    expect(http.headers.every((h) => h.authorization === 'Bearer header-secret-123456')).toBe(true);
    const events: any[] = [];
    expect((await p.call('mine', 'slow_count', { n: 3 }, context(events))).content).toBe('counted to 3');
    expect(events.map((e) => e.output.custom.tail)).toEqual(['step 1 (1/3)', 'step 2 (2/3)', 'step 3 (3/3)']);

    expect((await p.toolsFor('mine')).map((t) => t.name)).not.toContain('mcp__mine__late_tool');
    http.addTool('late_tool', 'I came later');
    const deadline = Date.now() + 5000;
    while (!(await p.toolsFor('mine')).some((t) => t.name === 'mcp__mine__late_tool') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await p.toolsFor('mine')).map((t) => t.name)).toContain('mcp__mine__late_tool');
    expect((await p.call('mine', 'late_tool', {}, context())).content).toBe('I came later');
  });

  it('cancelling a call cancels it on the server', async () => {
    const p = pool({ mine: { url: http.url } });
    await p.toolsFor('mine');
    const ctx = context();
    const abort = new AbortController();
    ctx.signal = abort.signal;
    const started = Date.now();
    setTimeout(() => abort.abort(new Error('the person pressed Ctrl-C')), 150);
    await expect(p.call('mine', 'slow_count', { n: 200 }, ctx)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1000);
    for (let i = 0; i < 50 && !http.cancelled.includes(200); i++) await new Promise((r) => setTimeout(r, 20));
    expect(http.cancelled).toContain(200);
  });

  it('refuses a URL whose name resolves to a private address unless it is named or allowed (fetch_url’s rules)', async () => {
    const name = hostname();
    const addr = await lookup(name).catch(() => undefined);
    expect(addr?.address, `${name} should resolve to a loopback address on this machine`).toMatch(/^127\.|^::1$/);
    const url = http.url.replace('127.0.0.1', name);
    await expect(pool({ hidden: { url } }).toolsFor('hidden')).rejects.toThrow(/loopback address.*ADK_FETCH_ALLOW_HOSTS/s);
    const allowed = pool({ hidden: { url } }, { allowHosts: [{ host: name }] });
    await allowed.toolsFor('hidden');
    expect((await allowed.call('hidden', 'whoami', {}, context())).content).toMatch(/^auth:/);
  });

  it('an address written in a URL a server points at (OAuth metadata, an agent card) is checked too, and only web pages open', async () => {
    const port = Number(new URL(http.url).port);
    // A remote server at a public name may not send adk to this machine's addresses, written out or mapped.
    const remote = mcpFetch(new URL('https://mcp.example.com/mcp'));
    await expect(remote(`http://127.0.0.1:${port}/mcp`)).rejects.toThrow(/loopback address/);
    await expect(remote(`http://[::ffff:127.0.0.1]:${port}/mcp`)).rejects.toThrow(/loopback address/);
    await expect(remote(`http://169.254.169.254/latest/meta-data/`)).rejects.toThrow(/link-local/);
    // The address the person wrote is theirs to reach.
    const named = mcpFetch(new URL(http.url));
    expect((await named(`http://127.0.0.1:${port}/mcp`)).status).toBeGreaterThanOrEqual(400); // reached: the server answers (not refused)
    await expect(openBrowser('file:///etc/passwd', { ADK_BROWSER: 'true' })).rejects.toThrow(/only https/);
  });
});
