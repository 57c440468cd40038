import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import { mcpFetch, type McpFetch } from '../mcp-http-fetch.js';
import { parseAllowHosts } from '../net/address-policy.js';
import { LoopbackReceiver } from './loopback.js';
import { AdkOAuthProvider, ForgottenClientError, type OAuthProviderOptions } from './provider.js';
import { readAuthRecord, updateAuthRecord } from './token-file.js';

export interface McpLoginOptions extends Omit<OAuthProviderOptions, 'interactive'> {
  /** Cancels the wait for the browser. */
  signal?: AbortSignal;
}

/**
 * `adk mcp login NAME`: the whole browser flow for one remote MCP server. Discovers the protected
 * resource metadata (from the 401's WWW-Authenticate, else the well-known URIs) and the authorization
 * server's metadata, registers (client ID metadata document or dynamic registration), sends the
 * browser to the authorization URL with PKCE and a state, takes the code on a loopback redirect,
 * exchanges it and stores the tokens under ADK_HOME/mcp-auth.
 */
export async function mcpLogin(name: string, url: string, options: McpLoginOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const before = readAuthRecord(name, url, env);
  const receiver = await LoopbackReceiver.start(before.redirectPort);
  try {
    updateAuthRecord(
      name,
      url,
      (r) => {
        // A login rediscovers: the server may have moved to another authorization server.
        r.discovery = undefined;
        r.codeVerifier = undefined;
        // A registration names its redirect URI; on another port, register again.
        if (r.client && receiver.port !== r.redirectPort && !isUrlClientId(r.client.client_id)) r.client = undefined;
      },
      env,
    );
    let provider = new AdkOAuthProvider(name, url, { ...options, interactive: true }, { receiver });
    // Discovery follows URLs the server gives: fetch_url's network rules apply to all of them.
    const fetchFn = mcpFetch(new URL(url), parseAllowHosts(env.ADK_FETCH_ALLOW_HOSTS));
    const challenge = await probe(url, fetchFn);
    const start = () => auth(provider, { serverUrl: url, ...challenge, forceReauthorization: true, fetchFn });
    let started;
    try {
      started = await start();
    } catch (e) {
      if (!(e instanceof ForgottenClientError)) throw e;
      // The forgotten registration is dropped: this time auth() registers a new one.
      provider = new AdkOAuthProvider(name, url, { ...options, interactive: true }, { receiver });
      started = await start();
    }
    if (started === 'AUTHORIZED') return;
    const { code, iss } = await receiver.wait({ timeoutMs: options.timeoutMs, signal: options.signal });
    const finished = await auth(provider, { serverUrl: url, authorizationCode: code, ...(iss ? { iss } : {}), ...challenge, fetchFn });
    if (finished !== 'AUTHORIZED') throw new Error(`MCP server "${name}": the login did not complete`);
  } finally {
    await receiver.close();
  }
}

const isUrlClientId = (id: string): boolean => /^https:\/\//i.test(id);

/**
 * One unauthenticated request, to read the server's 401 challenge: its `resource_metadata` URL and
 * `scope` take precedence over the well-known URIs and `scopes_supported` (MCP authorization spec).
 */
async function probe(url: string, fetchFn: McpFetch): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    return {};
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}
