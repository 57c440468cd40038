import { describe, expect, it } from 'vitest';
import { expectExit, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// A saved session must rebuild the same team on resume: same agents, same models.
const server = useServer();

const TWO_MODELS = `version: 1
default: duo
models:
  fast: { model: fast-model, api_key_env: OPENAI_API_KEY }
  smart: { model: smart-model, api_key_env: OPENAI_API_KEY }
agents:
  duo:
    type: sequential
    sub_agents: [quick, careful]
  quick:
    model: fast
    instruction: Answer quickly.
  careful:
    model: smart
    instruction: Answer carefully.
`;

describe('sessions rebuild their team', () => {
  it('a team on two models keeps both models when the session continues', async () => {
    const agents = writeAgentsFile(tempDir(), TWO_MODELS);
    const home = tempHome();
    const opts = { env: serverEnv(server(), 'test-key-123456', home), cwd: tempDir() };
    server().onRequest(() => ({ content: 'ok' }));
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'first'], 0, opts));
    expect(server().chatRequests.map((r) => r.body.model)).toEqual(['fast-model', 'smart-model']);

    await expectExit(['resume', id, 'second', '--json'], 0, opts);
    await expectExit(['run', '--session', id, '--json', 'third'], 0, opts);
    expect(server().chatRequests.map((r) => r.body.model)).toEqual(['fast-model', 'smart-model', 'fast-model', 'smart-model', 'fast-model', 'smart-model']);

    // An explicit --model still wins.
    await expectExit(['resume', id, '--model', 'other-model', 'fourth', '--json'], 0, opts);
    expect(server().chatRequests.slice(6).map((r) => r.body.model)).toEqual(['other-model', 'other-model']);
  });

  it('a supervisor team is saved under its agents.yaml name and continues as the same team', async () => {
    const agents = writeAgentsFile(
      tempDir(),
      `version: 1
default: crew
agents:
  crew:
    type: supervisor
    supervisor: boss
    sub_agents: [helper]
  boss:
    instruction: BOSS decides.
  helper:
    description: Helps.
    instruction: HELPER helps.
`,
    );
    const home = tempHome();
    const opts = { env: serverEnv(server(), 'test-key-123456', home), cwd: tempDir() };
    const order: string[] = [];
    server().onRequest((req) => {
      const sys = req.body.messages[0].content as string;
      const who = sys.includes('BOSS') ? 'boss' : 'helper';
      order.push(who);
      const offered = (req.body.tools ?? []).map((t: any) => t.function.name);
      if (who === 'boss' && offered.includes('transfer_to_agent') && req.body.messages.at(-1).role === 'user' && !req.body.messages.at(-1).content.startsWith('For context'))
        return { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'helper' } }] };
      return { content: `${who} answered` };
    });
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'first task'], 0, opts));
    expect(order).toEqual(['boss', 'helper', 'boss']);
    const shown = JSON.parse((await expectExit(['sessions', 'show', id, '--json'], 0, opts)).stdout);
    expect(shown.rootAgent).toBe('crew');

    await expectExit(['resume', id, 'second task', '--json'], 0, opts);
    // The boss still has its helper (the supervisor team, not the lone supervisor agent).
    expect(order).toEqual(['boss', 'helper', 'boss', 'boss', 'helper', 'boss']);
  });
});
