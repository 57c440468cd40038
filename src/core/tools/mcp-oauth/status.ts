import { readAuthRecord } from './token-file.js';

/**
 * What `/mcp` and `adk mcp list` show for a remote server:
 * - `logged-in`: adk holds a token that is still valid, or can renew it with its refresh token;
 * - `expired`: adk held a token but it can no longer be used (expired without a refresh token, or
 *   refused by the server): `adk mcp login NAME` again;
 * - `needs-login`: adk never logged in to this server (or logged out).
 * Reads only the local file: no network.
 */
export type McpAuthStatus = 'logged-in' | 'needs-login' | 'expired';

export function authStatus(name: string, url: string, { env = process.env, now = Date.now() }: { env?: NodeJS.ProcessEnv; now?: number } = {}): McpAuthStatus {
  const record = readAuthRecord(name, url, env);
  if (!record.tokens) return record.refusedAt ? 'expired' : 'needs-login';
  if (record.tokens.refresh_token) return 'logged-in';
  return record.expiresAt !== undefined && record.expiresAt <= now ? 'expired' : 'logged-in';
}
