import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** The backends a store URL can name. */
export type StoreKind = 'memory' | 'sqlite' | 'redis' | 'postgres';

/** A parsed store URL (parseStoreUrl): which backend, what it connects to, and how to show it safely. */
export interface StoreLocation {
  kind: StoreKind;
  /** What the backend connects to: a file path for sqlite, the full URL (with credentials) otherwise. */
  target: string;
  /** Safe to print: no user name, password or secret query parameters. */
  display: string;
  /** Credentials found in the URL, so error messages can be scrubbed of them. */
  secrets: string[];
}

/** The accepted store URL forms, as listed in error messages. */
export const SUPPORTED_STORE_SCHEMES = 'sqlite://<path>, redis://, rediss://, postgres://, postgresql://, memory:';

const SECRET_PARAM = /pass|pwd|secret|token|key/i;

/** adk's data folder: ADK_HOME when set and non-empty, else `~/.adk`. */
export function defaultAdkHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ADK_HOME || join(homedir(), '.adk');
}

/** `url`, else ADK_STORE, else the SQLite file under ADK_HOME. */
export function parseStoreUrl(url: string | undefined, adkHome: string): StoreLocation {
  const raw = url?.trim();
  if (!raw) {
    const file = join(adkHome, 'adk.sqlite');
    return { kind: 'sqlite', target: file, display: `sqlite://${file}`, secrets: [] };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === 'memory') return { kind: 'memory', target: 'memory:', display: 'memory:', secrets: [] };
  if (scheme === 'sqlite') return sqliteLocation(raw);
  if (scheme === 'redis' || scheme === 'rediss') return networkLocation('redis', raw);
  if (scheme === 'postgres' || scheme === 'postgresql') return networkLocation('postgres', raw);
  const shown = scheme ? `"${scheme}:"` : 'none (expected a URL)';
  throw new ConfigError(`unsupported store URL scheme ${shown}; supported: ${SUPPORTED_STORE_SCHEMES}`);
}

function sqliteLocation(raw: string): StoreLocation {
  let path = raw.replace(/^sqlite:(\/\/)?/i, '');
  if (!path) throw new ConfigError('store URL sqlite:// needs a file path, e.g. sqlite:///home/me/.adk/adk.sqlite');
  if (path === '~' || path.startsWith('~/')) path = join(homedir(), path.slice(1));
  const file = resolve(path);
  return { kind: 'sqlite', target: file, display: `sqlite://${file}`, secrets: [] };
}

function networkLocation(kind: 'redis' | 'postgres', raw: string): StoreLocation {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The raw text may hold a password: never echo it.
    throw new ConfigError(`invalid ${kind} store URL (could not parse it); expected e.g. ${kind === 'redis' ? 'redis://host:6379' : 'postgres://user@host/db'}`);
  }
  const secrets: string[] = [];
  if (parsed.password) secrets.push(parsed.password, decodeURIComponent(parsed.password));
  const shown = new URL(parsed.href);
  shown.username = '';
  shown.password = '';
  for (const [name, value] of parsed.searchParams) {
    if (SECRET_PARAM.test(name)) {
      secrets.push(value);
      shown.searchParams.set(name, '***');
    }
  }
  return { kind, target: raw, display: shown.href, secrets: secrets.filter((s) => s.length > 0) };
}

/** Removes every known credential from a message before it is shown. */
export function scrub(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out;
}
