import { describe, expect, it } from 'vitest';
import { ofType, runCli, serverEnv, tempDir, useServer, writeAgentsFile } from './helpers.js';

// Issue 32, item 4: tokens count every model request of a turn, the sub-agents' behind an agent tool
// too (the deep team's task tool is one), not only the root agent's replies. The local server's
// requests and the usage they reported equal the JSONL `done` totals, also per model.
const server = useServer();

const TEAM = `version: 1
default: lead
models:
  default: { model: "gpt-test", base_url: "\${OPENAI_BASE_URL}", api_key_env: OPENAI_API_KEY }
agents:
  lead:
    description: Leads the work.
    instruction: You lead.
    tools: [{ agent: helper }]
  helper:
    description: Helps with a task.
    instruction: You help.
`;

describe('usage over every model request (adk run --json)', () => {
  it('a lead that asks a sub-agent twice: 5 requests on the server, their usage summed in done.usage and byModel', async () => {
    const usage = { promptTokens: 1000, completionTokens: 100 };
    server().onRequest((req) => {
      const system = String(req.body.messages[0]?.content ?? '');
      const last = req.body.messages.at(-1);
      if (system.includes('You help')) return { content: 'helped', usage };
      const asked = req.body.messages.filter((m: any) => m.role === 'tool').length;
      if (asked < 2) return { toolCalls: [{ name: 'helper', arguments: { request: `part ${asked + 1}` } }], usage };
      return { content: `done after ${last.role}`, usage };
    });
    const dir = tempDir();
    const agents = writeAgentsFile(dir, TEAM);
    const r = await runCli(['run', '--json', '--agents', agents, 'do the work'], { env: serverEnv(server()), cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const requests = server().chatRequests.length;
    expect(requests).toBe(5);
    const done = ofType(r.lines, 'done')[0];
    expect(done.usage.promptTokens).toBe(requests * 1000);
    expect(done.usage.completionTokens).toBe(requests * 100);
    expect(done.usage.byModel).toEqual({ 'gpt-test': { promptTokens: requests * 1000, completionTokens: requests * 100 } });
  });
});
