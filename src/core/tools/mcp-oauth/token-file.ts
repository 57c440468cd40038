import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { defaultAdkHome } from '../../store/store-url.js';
import { reportSecrets } from './secret-sink.js';

/**
 * Everything adk keeps for one user and one remote MCP server: its client registration, tokens,
 * PKCE verifier and discovery results. Lives only in ADK_HOME/mcp-auth/<server-key>.json (0600),
 * never in the session store.
 */
export interface AuthRecord {
  version: 1;
  /** The server name and URL this record belongs to, so a file can be told apart by eye. */
  name: string;
  url: string;
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** When the access token stops working (ms since epoch), from `expires_in` at save time. */
  expiresAt?: number;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** The loopback port the client was registered with, reused so the registration stays valid. */
  redirectPort?: number;
  /** Set when the server refused the stored tokens (revoked): only a new login helps. */
  refusedAt?: number;
}

/** Where the auth records live: ADK_HOME/mcp-auth. */
export const authDir = (env: NodeJS.ProcessEnv = process.env): string => join(defaultAdkHome(env), 'mcp-auth');

/**
 * The file name for a server: its name made file-safe plus a hash of its URL, so a server renamed
 * to another URL never reuses tokens minted for the old one.
 */
export function serverKey(name: string, url: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64) || 'server';
  const hash = createHash('sha256').update(new URL(url).href).digest('hex').slice(0, 16);
  return `${safe}-${hash}`;
}

export const authFile = (name: string, url: string, env: NodeJS.ProcessEnv = process.env): string => join(authDir(env), `${serverKey(name, url)}.json`);

/** The record for a server, or a fresh empty one. A corrupt file counts as absent (log in again). */
export function readAuthRecord(name: string, url: string, env: NodeJS.ProcessEnv = process.env): AuthRecord {
  const empty: AuthRecord = { version: 1, name, url };
  let text: string;
  try {
    text = readFileSync(authFile(name, url, env), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return empty;
  }
  if (!parsed || typeof parsed !== 'object' || (parsed as AuthRecord).version !== 1) return empty;
  const record = { ...(parsed as AuthRecord), name, url };
  reportSecrets(record);
  return record;
}

/** Replaces the record atomically: a 0600 temp file in the same 0700 folder, fsynced, renamed over. */
export function writeAuthRecord(record: AuthRecord, env: NodeJS.ProcessEnv = process.env): void {
  reportSecrets(record);
  const dir = ensureAuthDir(env);
  const target = authFile(record.name, record.url, env);
  const temp = join(dir, `.${serverKey(record.name, record.url)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' + mode: the file is born 0600, there is no window where it is readable by others.
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(record, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, target);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** Read-modify-write in one synchronous step, so two saves in one process cannot interleave. */
export function updateAuthRecord(name: string, url: string, change: (record: AuthRecord) => void, env: NodeJS.ProcessEnv = process.env): AuthRecord {
  const record = readAuthRecord(name, url, env);
  change(record);
  writeAuthRecord(record, env);
  return record;
}

export function deleteAuthRecord(name: string, url: string, env: NodeJS.ProcessEnv = process.env): void {
  rmSync(authFile(name, url, env), { force: true });
}

function ensureAuthDir(env: NodeJS.ProcessEnv): string {
  const dir = authDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by umask and ignored for an existing folder: set it outright.
  chmodSync(dir, 0o700);
  return dir;
}
