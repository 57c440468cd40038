import type { AgentCard, Part } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { ConfigError } from '../../errors.js';
import { importOptional, notInstalled } from '../../optional-peer.js';
import { mcpFetch } from '../../tools/mcp-http-fetch.js';
import type { AllowEntry } from '../../tools/net/address-policy.js';

/** A remote A2A agent reached: its card and a client of the SDK speaking to it. */
export interface A2aConnection {
  card: AgentCard;
  client: Client;
}

/**
 * Fetches the Agent Card at `url` (the agent's base URL, or the card's own URL when it ends in
 * `.json`) and makes a client for it. The SDK is an optional peer, loaded here on first use, so
 * programs that never reach a remote agent never load it. Every request it makes (the card, the
 * JSON-RPC or REST calls) goes through fetch_url's address rules: public addresses, an address the
 * URL names itself, or a host ADK_FETCH_ALLOW_HOSTS opens.
 */
export async function connectA2a(url: string, allowHosts: readonly AllowEntry[] = []): Promise<A2aConnection> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new ConfigError(`the A2A agent URL ${url} is not http(s)`);
  const sdk = await importOptional(() => import('@a2a-js/sdk/client'), '@a2a-js/sdk', () => new ConfigError(`the A2A agent at ${url} needs ${notInstalled('@a2a-js/sdk')}`));
  const fetchImpl = guardedFetch(target, allowHosts);
  // v0.3 cards and servers too: most agents of other frameworks still speak it.
  const legacyCompat = { enabled: true };
  const cardResolver = new sdk.DefaultAgentCardResolver({ fetchImpl, legacyCompat });
  const cardAt = /\.json$/i.test(target.pathname) ? ([url, ''] as const) : ([url.replace(/\/+$/, ''), undefined] as const);
  let card: AgentCard;
  try {
    card = await cardResolver.resolve(cardAt[0], cardAt[1]);
  } catch (e) {
    throw new Error(`cannot read the Agent Card of the A2A agent at ${url}: ${(e as Error).message}`, { cause: e });
  }
  const factory = new sdk.ClientFactory({
    transports: [new sdk.JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new sdk.RestTransportFactory({ fetchImpl, legacyCompat })],
    cardResolver,
  });
  return { card, client: await factory.createFromAgentCard(card) };
}

/** mcpFetch's rules, with its refusal told as being about A2A agents. */
function guardedFetch(target: URL, allowHosts: readonly AllowEntry[]): typeof fetch {
  const inner = mcpFetch(target, allowHosts);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      // The SDK calls fetch(url, init); a Request is taken by its URL alone.
      return await inner(input instanceof Request ? input.url : input, init);
    } catch (e) {
      const err = e as Error;
      if (!/remote MCP servers/.test(err.message)) throw e;
      throw new Error(err.message.replace('remote MCP servers', 'remote A2A agents'), { cause: e });
    }
  }) as typeof fetch;
}

/** The text of message or artifact parts (other parts are not text a model reads). */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}
