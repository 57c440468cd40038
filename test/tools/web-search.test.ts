import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatModelAgent, Runner } from '../../src/core/index.js';
import { ScriptedChatModel } from '../../src/core/entries/testing.js';
import { handoffToPlannerTool, writeFileTool } from '../../src/core/entries/tools.js';
import { NO_SEARCH_PROVIDER, searchProvider, webSearchTool } from '../../src/core/tools/builtin/web-search.js';

// Issue 33: web_search through a provider named by the environment; a local SearXNG stands in.
let server: Server | undefined;
afterEach(() => server?.close());

function fakeSearxng(): Promise<{ url: string; queries: URLSearchParams[] }> {
  const queries: URLSearchParams[] = [];
  server = createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    queries.push(u.searchParams);
    const results = Array.from({ length: 8 }, (_, i) => ({ title: `Result ${i + 1}`, url: `https://example.org/${i + 1}`, content: `snippet\n ${i + 1}` }));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(u.pathname === '/search' && u.searchParams.get('format') === 'json' ? { results } : { error: 'bad' }));
  });
  return new Promise((resolve) => server!.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, queries })));
}

const ctx = (options: Record<string, unknown> = {}) => ({ signal: new AbortController().signal, options }) as any;

describe('web_search', () => {
  it('says no provider is configured, as its result, without one', async () => {
    const out = await webSearchTool({}).execute({ query: 'sky' }, ctx());
    expect(out).toEqual({ content: NO_SEARCH_PROVIDER, isError: true });
  });

  it('searches SearXNG and keeps as many results as the run asks (DeerFlow max_search_results)', async () => {
    const fake = await fakeSearxng();
    const out = await webSearchTool({ SEARX_HOST: fake.url }).execute({ query: 'why is the sky blue' }, ctx({ web_search: { maxResults: 2 } }));
    expect(out).toBe('1. Result 1\n   https://example.org/1\n   snippet 1\n2. Result 2\n   https://example.org/2\n   snippet 2');
    expect(fake.queries[0]!.get('q')).toBe('why is the sky blue');
    const own = await webSearchTool({ SEARX_HOST: fake.url }).execute({ query: 'q', max_results: 3 }, ctx({ web_search: { maxResults: 2 } }));
    expect(String(own).split('\n').filter((l) => /^\d+\./.test(l))).toHaveLength(3);
  });

  it('ADK_SEARCH_PROVIDER picks among configured providers; keys are not in the provider error', async () => {
    expect(searchProvider({ TAVILY_API_KEY: 'k1', SEARX_HOST: 'http://s' })).toMatchObject({ kind: 'tavily' });
    expect(searchProvider({ TAVILY_API_KEY: 'k1', SEARX_HOST: 'http://s', ADK_SEARCH_PROVIDER: 'searxng' })).toEqual({ kind: 'searxng', url: 'http://s' });
    expect(searchProvider({ ADK_SEARCH_PROVIDER: 'brave' })).toBeUndefined();
  });

  it('is read-only, as handoff_to_planner is: both run in a read-only mode (plan mode), where a file write is refused', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'web_search', arguments: { query: 'sky' } }, { name: 'handoff_to_planner', arguments: { research_topic: 'sky', locale: 'en-US' } }, { name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] },
      { content: 'done' },
    ]);
    const tools = [webSearchTool({}), handoffToPlannerTool, writeFileTool(mkdtempSync(join(tmpdir(), 'adk-ro-')))];
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools });
    // The policy of a plan mode: only read-only tools run.
    const approvalPolicy = { allows: () => true, refuses: ({ tool, readOnly }: { tool: string; readOnly: boolean }) => (readOnly ? undefined : `plan mode: ${tool} is not read-only`) };
    const r = await new Runner({ agent, tracing: false }).query('go', { approvalPolicy }).result;
    const results = new Map(r.messages.filter((m) => m.role === 'tool').map((m) => [m.toolName, m.content]));
    expect(results.get('web_search')).toBe(NO_SEARCH_PROVIDER);
    expect(results.get('handoff_to_planner')).toBe('Handed off to the planner: sky (en-US)');
    expect(results.get('write_file')).toContain('plan mode: write_file is not read-only');
  });
});
