import { describe, expect, it } from 'vitest';
import { LEAD_HELPER_TEAM, leadAsksHelperTwice } from '../support/lead-helper-team.js';
import { ofType, runCli, serverEnv, tempDir, useServer, writeAgentsFile } from './helpers.js';

// Issue 32, item 4: tokens count every model request of a turn, the sub-agents' behind an agent tool
// too (the deep team's task tool is one), not only the root agent's replies. The local server's
// requests and the usage they reported equal the JSONL `done` totals, also per model.
const server = useServer();

const TEAM = LEAD_HELPER_TEAM;

describe('usage over every model request (adk run --json)', () => {
  it('a lead that asks a sub-agent twice: 5 requests on the server, their usage summed in done.usage and byModel', async () => {
    const usage = { promptTokens: 1000, completionTokens: 100 };
    server().onRequest(leadAsksHelperTwice(usage, (last) => `done after ${last.role}`));
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

describe('usage of a model request that failed mid-stream and was retried', () => {
  it('counts the failed attempt too: its prompt and the text streamed before the drop, estimated', async () => {
    const { countTokens } = await import('gpt-tokenizer');
    const partial = 'alpha bravo charlie delta echo foxtrot golf hotel ';
    server().enqueue(
      // The connection drops after the role chunk and five chunks of text; the server sent no usage.
      { content: `${partial}india juliet kilo lima mike november oscar papa`, chunkSize: 10, resetAfterChunks: 6 },
      { content: 'done', usage: { promptTokens: 1000, completionTokens: 100 } },
    );
    const dir = tempDir();
    const agents = writeAgentsFile(dir, 'version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Answer. }\n');
    const r = await runCli(['run', '--json', '--agents', agents, 'say something'], { env: { ...serverEnv(server()), ADK_RETRY_BASE_MS: '0' }, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(server().chatRequests).toHaveLength(2);
    expect(ofType(r.lines, 'retry')).toHaveLength(1);
    const done = ofType(r.lines, 'done')[0];
    expect(done.output).toBe('done');
    // The failed attempt sent the same prompt (a few dozen tokens here) and streamed `partial`.
    expect(done.usage.promptTokens).toBeGreaterThan(1010);
    expect(done.usage.promptTokens).toBeLessThan(1000 + 200);
    expect(done.usage.completionTokens).toBe(100 + countTokens(partial));
    expect(done.usage.estimated).toBe(true);
    expect(done.usage.byModel['gpt-test']).toEqual({ promptTokens: done.usage.promptTokens, completionTokens: done.usage.completionTokens });
  });
});
