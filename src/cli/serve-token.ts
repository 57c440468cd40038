import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAdkHome } from '../core/store/store-url.js';
import { CliError, ExitCode } from './exit-codes.js';

export const SERVE_TOKEN_FILE = 'serve-token';

/**
 * The token `adk serve` wants from every client: ADK_SERVE_TOKEN, else the one kept (0600) in
 * ADK_HOME/serve-token, made the first time. The file is refused if others could read it.
 */
export function serveToken(env: NodeJS.ProcessEnv = process.env): { token: string; file?: string } {
  if (env.ADK_SERVE_TOKEN) {
    // A guessable token is no credential: at least 16 characters, like the one adk makes (32).
    if (env.ADK_SERVE_TOKEN.length < 16) throw new CliError('ADK_SERVE_TOKEN is shorter than 16 characters: use a random one (e.g. openssl rand -hex 32), or unset it and adk makes one', ExitCode.usage);
    return { token: env.ADK_SERVE_TOKEN };
  }
  const home = defaultAdkHome(env);
  const file = join(home, SERVE_TOKEN_FILE);
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0) throw new Error(`${file} can be read by other accounts (mode ${(st.mode & 0o777).toString(8)}): chmod 600 it, or delete it for a new token`);
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return { token, file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const token = randomBytes(24).toString('base64url');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return { token, file };
}
