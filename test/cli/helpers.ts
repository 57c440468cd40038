import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startOpenAIServer, type OpenAITestServer, type RecordedRequest } from '../support/openai-server.js';
import { runCli, tempHome, type CliOptions, type CliResult } from '../support/cli.js';

export { runCli, tempHome };
export type { CliResult, OpenAITestServer, RecordedRequest };

/** JSONL lines of one type. */
export const ofType = (lines: any[], type: string): any[] => lines.filter((l) => l && typeof l === 'object' && l.type === type);
/** JSONL lines without the (many) streamed deltas, for readable failure output. */
export const withoutDeltas = (lines: any[]): any[] => lines.filter((l) => l?.type !== 'delta');

export const tempDir = (prefix = 'adk-cli-'): string => mkdtempSync(join(tmpdir(), prefix));

/** A one-agent team (`chat`) whose shell asks first, with `tools` (shell among them). */
export function shellApprovalAgents(tools: string[] = ['shell']): string {
  return `version: 1
default: chat
agents:
  chat:
    description: A test agent whose shell needs approval.
    instruction: You are a careful test agent.
    tools: [${tools.join(', ')}]
    approval: [shell]
`;
}

/** Writes an agents file into `dir` and returns its path. */
export function writeAgentsFile(dir: string, yaml: string, name = 'agents.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

/** One local OpenAI-compatible server for the whole file, reset before every test. */
export function useServer(): () => OpenAITestServer {
  let server: OpenAITestServer | undefined;
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(() => server?.close());
  beforeEach(() => server?.reset());
  return () => server!;
}

/** Environment that points the CLI at the server. */
export const serverEnv = (server: OpenAITestServer, key = 'test-key-123456', home?: string): Record<string, string | undefined> => ({
  OPENAI_BASE_URL: server.url,
  OPENAI_API_KEY: key,
  ADK_MODEL: 'gpt-test',
  ...(home ? { ADK_HOME: home } : {}),
});

/** Environment with nothing pointing at a model: the bundled file falls back to the offline demo. */
export const offlineEnv = (home?: string): Record<string, string | undefined> => ({
  OPENAI_API_KEY: undefined,
  OPENAI_BASE_URL: undefined,
  ADK_MODEL: undefined,
  ADK_STORE: undefined,
  ...(home ? { ADK_HOME: home } : {}),
});

export const systemOf = (req: RecordedRequest): string => req.body.messages.find((m: any) => m.role === 'system')?.content ?? '';
export const toolsOf = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: any) => t.function.name);
export const messagesOf = (req: RecordedRequest): any[] => req.body.messages;
/** The request's own tool results (other agents' results arrive rewritten as user context). */
export const toolMessagesOf = (req: RecordedRequest): any[] => messagesOf(req).filter((m) => m.role === 'tool');
/** Every message's text joined, to search a request for something the model was shown. */
export const textOf = (req: RecordedRequest): string => messagesOf(req).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''))).join('\n');

/** Runs the CLI and fails with the whole output when the exit code is not `code`. */
export async function expectExit(args: string[], code: number, opts: CliOptions = {}): Promise<CliResult> {
  const r = await runCli(args, opts);
  if (r.code !== code) {
    throw new Error(`adk ${args.join(' ')} exited ${r.code} (signal ${r.signal}), expected ${code}\nstdout:\n${JSON.stringify(withoutDeltas(r.lines), null, 1)}\nstderr:\n${r.stderr}`);
  }
  return r;
}

export const sessionIdOf = (r: CliResult): string => {
  const s = ofType(r.lines, 'session')[0];
  if (!s) throw new Error(`no session line in:\n${r.stdout}\n${r.stderr}`);
  return s.sessionId;
};

/** Bytes of the SQLite store under `home` (the database and its WAL), as latin1 text for searching. */
export function storeBytes(home: string): string {
  return ['adk.sqlite', 'adk.sqlite-wal', 'adk.sqlite-journal']
    .map((f) => join(home, f))
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n');
}
