import { describe, expect, it } from 'vitest';
import { createTeam, formatProblems, validateConfig } from '../../src/core/config/index.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';

// Issue 29, item 3: where a parent routes by description, agents.yaml must give one; `adk validate`
// says so before a build would refuse it.
describe('agents.yaml: descriptions where a parent routes by them', () => {
  it('reports a chat agent\'s or a supervisor\'s sub-agent without a description, and a parent a chat sub-agent can transfer back to', () => {
    const text = `version: 1
agents:
  p:
    sub_agents: [s, quiet]
  s: { description: S. }
  quiet: { disallow_transfer_to_parent: true }
  team: { type: supervisor, description: T., supervisor: lead, sub_agents: [w] }
  lead: { description: Lead. }
  w: {}
  seq: { type: sequential, sub_agents: [x, y] }
  x: {}
  y: {}
`;
    const shown = validateConfig({ text }, { env: {} }).problems.map((p) => `${p.path} ${p.message}`);
    expect(shown).toEqual([
      "agents.p 'p' has no description, and its sub-agent 's' reads it to decide when to transfer back",
      "agents.p.sub_agents[1] sub-agent 'quiet' has no description, and 'p' reads it to decide when to hand work to it",
      "agents.team.sub_agents[0] sub-agent 'w' has no description, and 'lead' reads it to decide when to hand work to it",
    ]);
  });

  it('builds a team whose routed agents have descriptions; workflow children need none', async () => {
    const text = `version: 1
agents:
  p: { description: P., sub_agents: [s] }
  s: { description: S. }
  seq: { type: sequential, sub_agents: [x, y] }
  x: {}
  y: {}
`;
    const r = validateConfig({ text }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    const deps = { model: () => new ScriptedChatModel([]), tools: async () => [] };
    expect((await createTeam(r.config!, deps, 'p')).name).toBe('p');
    expect((await createTeam(r.config!, deps, 'seq')).name).toBe('seq');
  });
});
