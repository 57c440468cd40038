import { discoverOAuthServerInfo, selectClientAuthMethod, type AuthorizationServerMetadata, type StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { mcpFetch, type McpFetch } from '../mcp-http-fetch.js';
import { parseAllowHosts } from '../net/address-policy.js';
import { deleteAuthRecord, readAuthRecord } from './token-file.js';

export interface McpLogoutResult {
  /** Whether adk held anything for this server. */
  removed: boolean;
  /** Whether the authorization server accepted the revocation of the tokens. */
  revoked: boolean;
}

/**
 * `adk mcp logout NAME`: revokes the tokens where the authorization server offers revocation
 * (RFC 7009), then deletes everything adk stored for the server. The local copy goes even when
 * revocation fails: logging out must never leave a token on disk.
 */
export async function mcpLogout(name: string, url: string, { env = process.env }: { env?: NodeJS.ProcessEnv } = {}): Promise<McpLogoutResult> {
  const record = readAuthRecord(name, url, env);
  const removed = Boolean(record.tokens || record.client);
  let revoked = false;
  try {
    if (record.tokens && record.client) {
      const metadata = record.discovery?.authorizationServerMetadata ?? (await discoverOAuthServerInfo(url, { fetchFn: mcpFetch(new URL(url), parseAllowHosts(env.ADK_FETCH_ALLOW_HOSTS)) })).authorizationServerMetadata;
      const endpoint = revocationEndpoint(metadata);
      if (endpoint && metadata) {
        // The refresh token first: revoking it ends the whole grant on most servers.
        const results = await Promise.all(
          [
            ['refresh_token', record.tokens.refresh_token],
            ['access_token', record.tokens.access_token],
          ].map(([hint, token]) => (token ? revoke(endpoint, metadata, record.client!, token, hint!, mcpFetch(new URL(url), parseAllowHosts(env.ADK_FETCH_ALLOW_HOSTS))) : Promise.resolve(true))),
        );
        revoked = results.every(Boolean);
      }
    }
  } finally {
    deleteAuthRecord(name, url, env);
  }
  return { removed, revoked };
}

/** OIDC discovery documents may name it too, though only RFC 8414's type declares it. */
function revocationEndpoint(metadata: AuthorizationServerMetadata | undefined): string | undefined {
  const value = (metadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
  return typeof value === 'string' ? value : undefined;
}

async function revoke(endpoint: string, metadata: AuthorizationServerMetadata, client: StoredOAuthClientInformation, token: string, hint: string, fetch: McpFetch): Promise<boolean> {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const listed = (metadata as { revocation_endpoint_auth_methods_supported?: string[] }).revocation_endpoint_auth_methods_supported;
  const method = selectClientAuthMethod(client, listed ?? metadata.token_endpoint_auth_methods_supported ?? []);
  if (method === 'client_secret_basic' && client.client_secret) {
    headers.set('authorization', `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`);
  } else {
    body.set('client_id', client.client_id);
    if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
  }
  try {
    const response = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
    await response.body?.cancel().catch(() => undefined);
    return response.ok;
  } catch {
    return false;
  }
}
