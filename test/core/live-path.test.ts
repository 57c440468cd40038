import { describe, expect, it } from 'vitest';
import { agentParents, ChatModelAgent, livePath, LoopAgent, planExecute, Planner, Executor, Replanner, Runner, ScriptedChatModel, SequentialAgent, setSubAgents, supervisor } from '../../src/core/index.js';

// Issue 15, defect 7: the breadcrumb keeps finished siblings. Eino's RunPath accumulates the
// siblings a sequence or loop has finished ([seq, a1, a2]); the live path shows where the run is.
const chat = (name: string, content = `${name} done`) => new ChatModelAgent({ name, description: name, model: new ScriptedChatModel([{ content }]) });

async function runPaths(agent: Parameters<typeof agentParents>[0]): Promise<string[][]> {
  const paths: string[][] = [];
  for await (const e of new Runner({ agent }).query('go')) if (e.runPath.length) paths.push(e.runPath);
  return paths;
}

describe('the live path (breadcrumb)', () => {
  it('drops the siblings a sequence has finished', async () => {
    const seq = new SequentialAgent({ name: 'seq', subAgents: [chat('a1'), chat('a2'), chat('a3')] });
    const paths = await runPaths(seq);
    expect(paths.at(-1)).toEqual(['seq', 'a1', 'a2', 'a3']);
    const parents = agentParents(seq);
    expect(paths.map((p) => livePath(p, parents).join(' > '))).toEqual(['seq > a1', 'seq > a2', 'seq > a3']);
  });

  it('restarts each loop iteration at the loop', async () => {
    const loop = new LoopAgent({ name: 'loop', maxIterations: 2, subAgents: [chat('w'), chat('r')] });
    const parents = agentParents(loop);
    expect(livePath(['loop', 'w', 'r', 'w', 'r'], parents)).toEqual(['loop', 'r']);
    expect(livePath(['loop', 'w', 'r', 'w'], parents)).toEqual(['loop', 'w']);
  });

  it('keeps a transfer chain, and a transfer back returns to the parent', () => {
    const lead = setSubAgents(chat('lead'), [setSubAgents(chat('researcher'), [chat('fetcher')]), chat('writer')]);
    const parents = agentParents(lead);
    expect(livePath(['lead', 'researcher', 'fetcher'], parents)).toEqual(['lead', 'researcher', 'fetcher']);
    expect(livePath(['lead', 'researcher', 'lead'], parents)).toEqual(['lead']);
    expect(livePath(['lead', 'researcher', 'writer'], parents)).toEqual(['lead', 'writer']);
  });

  it('a supervisor: [sup, sub1, sup, sub2] is sup > sub2', () => {
    const sup = supervisor({ supervisor: chat('sup'), subAgents: [chat('sub1'), chat('sub2')] });
    const parents = agentParents(sup);
    expect(livePath(['sup', 'sub1', 'sup', 'sub2'], parents)).toEqual(['sup', 'sub2']);
  });

  it('plan-execute: the replanner after the executor, not beside the planner', () => {
    const m = () => new ScriptedChatModel([]);
    const pe = planExecute({ name: 'research', planner: new Planner({ model: m() }), executor: new Executor({ model: m() }), replanner: new Replanner({ model: m() }) });
    const parents = agentParents(pe);
    expect(livePath(['research', 'planner', 'execute_replan', 'executor', 'replanner', 'executor'], parents)).toEqual(['research', 'execute_replan', 'executor']);
  });

  it('names it does not know (an agent tool\'s inner agents) are kept', () => {
    expect(livePath(['outer', 'inner', 'inner2'], new Map())).toEqual(['outer', 'inner', 'inner2']);
  });
});
