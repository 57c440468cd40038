import type { OpenAITestServer } from '../support/openai-server.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';

/** A one-agent team whose `tools` entry is `shell` (or shell with options), approval off, trusted in `home`. */
function shellTeam(home: string, shell = 'shell'): string {
  const file = writeAgentsFile(
    tempDir('adk-sbx-cfg-'),
    `version: 1
default: s
agents:
  s:
    description: Runs commands without asking (trusted for the test).
    instruction: Test agent.
    tools: [${shell}]
    approval: []
`,
  );
  trustAgentsFile(home, file);
  return file;
}

/**
 * Runs the commands through `adk run` as one parallel batch of shell calls the scripted model makes,
 * and returns each one's output (by command), the workspace and adk's stderr.
 */
export async function runShellCommands(
  server: OpenAITestServer,
  commands: string[],
  opts: { shell?: string | undefined; env?: Record<string, string>; ws?: string | undefined; key?: string | undefined } = {},
): Promise<{ ws: string; stderr: string; out: string[] }> {
  const adkHome = tempHome();
  const ws = opts.ws ?? tempDir('adk-sbx-ws-');
  const agents = shellTeam(adkHome, opts.shell);
  server.enqueue({ toolCalls: commands.map((command, i) => ({ id: `c${i}`, name: 'shell', arguments: { command } })) }, { content: 'done' });
  const r = await expectExit(['run', '--agents', agents, '--json', 'go'], 0, { env: { ...serverEnv(server, opts.key, adkHome), ...opts.env }, cwd: ws });
  const results = ofType(r.lines, 'tool_result');
  return { ws, stderr: r.stderr, out: commands.map((_, i) => results.find((t) => t.id === `c${i}`)?.content as string) };
}
