import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedRequest } from '../support/openai-server.js';
import { stripAnsi } from '../../src/ui/text/width.js';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const dirs: string[] = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Removes the folders `tempDir` made (call it after the stores using them are closed). */
export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) removeDir(d);
}

/**
 * A REPL the tmux server's end is still stopping may be writing a last file (the snapshot of its
 * workspace after its last turn): the removal is tried again for up to 3 s.
 */
function removeDir(dir: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      return rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      if (attempt >= 30 || (e as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** Polls until `check` returns something truthy; fails with `describe()` (e.g. the screen) after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, describe: () => string = () => '', timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- screen ---\n${describe()}`);
    await sleep(25);
  }
}

export const plain = (s: string | undefined) => stripAnsi(s ?? '');

export const KEY = { enter: '\r', esc: '\u001B', ctrlC: '\u0003' };

/** The start of the test teams' files: the local server's `gpt-test` as the default model. */
const TEAM_HEAD = `version: 1
default: lead
models:
  default: { model: "gpt-test", base_url: "\${OPENAI_BASE_URL}", api_key_env: OPENAI_API_KEY }
`;

/** A lead with file, shell (approval) and ask_user tools, and a researcher it can transfer to. */
export function writeTeam(dir: string): string {
  const file = join(dir, 'agents.yaml');
  writeFileSync(
    file,
    `${TEAM_HEAD}agents:
  lead:
    description: Leads the work.
    instruction: You lead.
    tools: [list_dir, shell, ask_user]
    approval: [shell]
    sub_agents: [researcher]
  researcher:
    description: Finds facts.
    instruction: You research.
    tools: [current_time]
`,
  );
  return file;
}

/**
 * An agents file whose team uses an MCP server that takes `delaySeconds` to start (the test
 * fixture behind `sleep`); `marker`, if given, is touched as the start begins. Returns its path.
 * The server runs on the host (`sandbox: off`): the fixture and the marker lie outside the workspace.
 */
export function writeSlowMcpTeam(file: string, delaySeconds: number, marker?: string): string {
  const touch = marker ? `touch '${marker}'; ` : '';
  const server = join(import.meta.dirname, '../tools/fixtures/mcp-server.mjs');
  writeFileSync(
    file,
    `${TEAM_HEAD}mcp_servers:
  calc: { command: sh, args: ["-c", "${touch}sleep ${delaySeconds}; exec '${process.execPath}' '${server}'"], sandbox: off }
agents:
  lead:
    description: Leads the work.
    instruction: You lead.
    tools: [list_dir, { mcp: calc }]
`,
  );
  return file;
}

export const messagesOf = (req: RecordedRequest): any[] => req.body.messages;
export const textOf = (req: RecordedRequest): string =>
  messagesOf(req)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')))
    .join('\n');

/** Tool call ids the request's assistant messages made that no tool message answers. */
export function danglingToolCalls(req: RecordedRequest): string[] {
  const answered = new Set(messagesOf(req).filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
  return messagesOf(req).flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c: any) => c.id) : [])).filter((id) => !answered.has(id));
}
