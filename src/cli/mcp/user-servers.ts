import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultAdkHome } from '../../core/store/store-url.js';
import { CliError, ExitCode } from '../exit-codes.js';
import type { McpServerEntry } from './server-entry.js';

/** The person's own MCP servers (`adk mcp add --scope user`): every team's root agent gets them. */
export const userMcpFile = (env: NodeJS.ProcessEnv = process.env) => join(defaultAdkHome(env), 'mcp.json');

export function readUserServers(env: NodeJS.ProcessEnv = process.env): Record<string, McpServerEntry> {
  const file = userMcpFile(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`${file}: ${(e as Error).message}`, ExitCode.usage);
  }
  try {
    const parsed = JSON.parse(text) as { servers?: Record<string, McpServerEntry> };
    return parsed.servers ?? {};
  } catch (e) {
    throw new CliError(`${file} is not valid JSON (${(e as Error).message}); fix or delete it`, ExitCode.usage);
  }
}

/** Writes the file whole (0600: it may hold tokens in headers), through a temporary file. */
export function writeUserServers(servers: Record<string, McpServerEntry>, env: NodeJS.ProcessEnv = process.env): void {
  const file = userMcpFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ servers }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
