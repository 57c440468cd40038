import * as z from 'zod';
import { cancelledBy } from '../../errors.js';
import type { Tool } from '../tool.js';

export const DEFAULT_SEARCH_RESULTS = 5;
const SEARCH_TIMEOUT_MS = 20_000;

const parameters = z.object({
  query: z.string().min(1).describe('What to search the web for'),
  max_results: z.number().int().min(1).max(20).optional().describe('How many results (default: the run\'s setting, else 5)'),
});

/** One search hit. */
export interface SearchHit {
  title: string;
  url: string;
  content: string;
}

/** Which provider answers, from the environment (keys are read when a search runs, never shown). */
export type SearchProvider = { kind: 'tavily'; key: string } | { kind: 'brave'; key: string } | { kind: 'searxng'; url: string };

/**
 * The provider the environment configures: `ADK_SEARCH_PROVIDER` (tavily, brave, searxng) picks one;
 * otherwise the first whose setting is present: `TAVILY_API_KEY`, `BRAVE_SEARCH_API_KEY`,
 * `SEARX_HOST` (a SearXNG instance with JSON output enabled; it needs no key).
 */
export function searchProvider(env: Readonly<Record<string, string | undefined>>): SearchProvider | undefined {
  const wanted = env.ADK_SEARCH_PROVIDER?.trim().toLowerCase();
  const tavily = env.TAVILY_API_KEY ? ({ kind: 'tavily', key: env.TAVILY_API_KEY } as const) : undefined;
  const brave = env.BRAVE_SEARCH_API_KEY ? ({ kind: 'brave', key: env.BRAVE_SEARCH_API_KEY } as const) : undefined;
  const searx = env.SEARX_HOST ? ({ kind: 'searxng', url: env.SEARX_HOST } as const) : undefined;
  if (wanted === 'tavily') return tavily;
  if (wanted === 'brave') return brave;
  if (wanted === 'searxng') return searx;
  return tavily ?? brave ?? searx;
}

export const NO_SEARCH_PROVIDER =
  'No search provider configured: set TAVILY_API_KEY (Tavily), BRAVE_SEARCH_API_KEY (Brave Search) or SEARX_HOST (a SearXNG URL) for adk, or use fetch_url on a known address.';

/**
 * The `web_search` tool: a web search through the provider the environment names (Tavily, Brave
 * Search or SearXNG), results as a numbered list of title, URL and snippet. How many results: the
 * call's `max_results`, else the run's `toolOptions.web_search.maxResults` (DeerFlow's
 * max_search_results), else 5. Without a provider it says so, as its result, and fails nothing.
 */
export function webSearchTool(env: Readonly<Record<string, string | undefined>> = process.env): Tool<z.infer<typeof parameters>> {
  return {
    name: 'web_search',
    readOnly: true,
    description: 'Search the web. Returns a numbered list of results: title, URL and a snippet of each.',
    parameters,
    timeoutMs: SEARCH_TIMEOUT_MS + 5_000,
    async execute({ query, max_results }, ctx) {
      const provider = searchProvider(env);
      if (!provider) return { content: NO_SEARCH_PROVIDER, isError: true };
      const fromRun = (ctx.options.web_search as { maxResults?: unknown } | undefined)?.maxResults;
      const count = max_results ?? (typeof fromRun === 'number' && fromRun > 0 ? Math.floor(fromRun) : DEFAULT_SEARCH_RESULTS);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
      try {
        const hits = (await search(provider, query, count, signal)).slice(0, count);
        if (!hits.length) return `No results for "${query}".`;
        return hits.map((h, i) => `${i + 1}. ${h.title}\n   ${h.url}\n   ${h.content.replace(/\s+/g, ' ').trim()}`).join('\n');
      } catch (e) {
        if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
        return { content: `Error: the ${provider.kind} search failed: ${(e as Error).message}`, isError: true };
      }
    },
  };
}

async function search(p: SearchProvider, query: string, count: number, signal: AbortSignal): Promise<SearchHit[]> {
  if (p.kind === 'tavily') {
    const body = await json(
      await fetch('https://api.tavily.com/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${p.key}` },
        body: JSON.stringify({ query, max_results: count }),
        signal,
      }),
    );
    return list(body.results).map((r) => ({ title: str(r.title), url: str(r.url), content: str(r.content) }));
  }
  if (p.kind === 'brave') {
    const url = `https://api.search.brave.com/res/v1/web/search?q=${encodeURIComponent(query)}&count=${count}`;
    const body = await json(await fetch(url, { headers: { accept: 'application/json', 'x-subscription-token': p.key }, signal }));
    return list((body.web as Record<string, unknown> | undefined)?.results).map((r) => ({ title: str(r.title), url: str(r.url), content: str(r.description) }));
  }
  const url = new URL('search', p.url.endsWith('/') ? p.url : `${p.url}/`);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  const body = await json(await fetch(url, { headers: { accept: 'application/json' }, signal }));
  return list(body.results).map((r) => ({ title: str(r.title), url: str(r.url), content: str(r.content) }));
}

async function json(res: Response): Promise<Record<string, unknown>> {
  // The status only: a provider's error body may echo the request, key included.
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

const list = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
