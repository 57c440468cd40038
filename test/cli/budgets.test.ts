import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44: budgets for a run nobody watches. A scripted model that never stops (it always calls a
// tool) is stopped at exactly the limit, checked before each call starts: the server sees N requests
// for --max-model-calls N, sub-agents' requests included; the run ends incomplete (reason budget), exit 1.
const server = useServer();
const AGENTS = `version: 1
default: boss
agents:
  boss:
    description: Works forever.
    instruction: Keep going.
    tools: [shell, { agent: helper }]
  helper:
    description: Helps.
    instruction: Help.
    tools: [shell]
`;
const step = (i: number) => ({ toolCalls: [{ id: `c${i}`, name: 'shell', arguments: { command: `touch step${i}.txt` } }] });
const forever = (n = 12) => Array.from({ length: n }, (_, i) => step(i));

function setup() {
  const cwd = tempDir('adk-budget-');
  writeAgentsFile(cwd, AGENTS);
  return { cwd, env: serverEnv(server(), 'sk-budget-key-000001', tempHome()) };
}

describe('adk run budgets', () => {
  it('--max-model-calls 3: the server sees exactly 3 requests; incomplete/budget, exit 1, naming the budget', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-model-calls', '3', 'go'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(3);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'budget' });
    expect(r.stderr).toContain('budget reached: max_model_calls (3 spent of 3)');
    // The three replies' tool calls ran (each was allowed to start); nothing after the limit.
    expect(['step0.txt', 'step1.txt', 'step2.txt', 'step3.txt'].map((f) => existsSync(join(cwd, f)))).toEqual([true, true, true, false]);
  });

  it("counts a sub-agent's model calls (an agent tool) against the same budget", async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [{ id: 'h', name: 'helper', arguments: { request: 'help' } }] }, ...forever());
    await expectExit(['run', '--json', '--allow', 'shell', '--max-model-calls', '4', 'go'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(4);
    // The boss's first request, then the helper's three: the helper ran out inside its own loop.
    expect(server().chatRequests.slice(1).every((q) => JSON.stringify(q.body.messages[0]).includes('Help.'))).toBe(true);
  });

  it('--max-tool-calls 2: the third tool call never starts; the run ends before the next model call', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-tool-calls', '2', 'go'], 1, { env, cwd });
    expect(r.stderr).toContain('budget reached: max_tool_calls (2 spent of 2)');
    expect(['step0.txt', 'step1.txt', 'step2.txt'].map((f) => existsSync(join(cwd, f)))).toEqual([true, true, false]);
    expect(ofType(r.lines, 'tool_result').map((x) => x.isError)).toEqual([false, false, true]);
    expect(server().chatRequests).toHaveLength(3);
  });

  it('--max-tool-calls in one parallel batch: the calls within it finish and are saved, the rest are answered, none cut', async () => {
    const { cwd, env } = setup();
    const batch = { toolCalls: [0, 1, 2].map((i) => ({ id: `p${i}`, name: 'shell', arguments: { command: `touch par${i}.txt` } })) };
    server().enqueue(batch, { content: 'never asked' });
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-tool-calls', '2', 'go'], 1, { env, cwd });
    const results = ofType(r.lines, 'tool_result');
    expect(results).toHaveLength(3);
    expect(results.filter((x) => x.isError).map((x) => x.content)).toEqual(["Not run: this run's tool-call budget is spent (max_tool_calls 2)."]);
    expect(['par0.txt', 'par1.txt', 'par2.txt'].filter((f) => existsSync(join(cwd, f)))).toHaveLength(2);
    expect(server().chatRequests).toHaveLength(1);
  });

  it('--max-tokens: no model call starts once the tokens spent reach the limit', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-tokens', '1', 'go'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(1);
    expect(r.stderr).toMatch(/budget reached: max_tokens \(\d+ spent of 1\)/);
  });

  it('--max-cost: priced by the bundled list price; a model without a price does not run under a cost cap', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-cost', '0.000001', 'go'], 1, { env: { ...env, ADK_MODEL: 'gpt-4o-mini' }, cwd });
    expect(server().chatRequests).toHaveLength(1);
    expect(r.stderr).toMatch(/budget reached: max_cost \(\$0\.\d{4} spent of \$0\.0000\)/);
    server().reset();
    const unpriced = await expectExit(['run', '--json', '--max-cost', '5', 'go'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(0);
    expect(unpriced.stderr).toContain("the price of model 'gpt-test' is unknown, so a cost budget cannot be kept; set price:");
  });

  it('--max-time: a call in flight is cancelled at the deadline, the session saved; incomplete/budget, exit 1', async () => {
    const { cwd, env } = setup();
    server().enqueue({ ...step(0), delayMs: 30_000 });
    const started = Date.now();
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-time', '1s', 'go'], 1, { env, cwd });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'budget' });
    expect(r.stderr).toContain('budget reached: max_time (1 s)');
  });

  it('bad limits are usage errors', async () => {
    const { cwd, env } = setup();
    for (const [flag, value, message] of [
      ['--max-model-calls', '0', '--max-model-calls 0: expected a whole number of at least 1'],
      ['--max-time', 'soon', '--max-time soon: expected a duration such as 90s, 20m or 1h'],
    ]) {
      const r = await runCli(['run', flag!, value!, 'go'], { env, cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('a reached budget is an interrupt: adk resume ID --raise max_model_calls=N goes on from that point, counting on', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever(4), { content: 'all done' });
    const first = await expectExit(['run', '--json', '--allow', 'shell', '--max-model-calls', '2', 'go'], 1, { env, cwd });
    const id = first.lines[0]!.sessionId as string;
    expect(first.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'budget' });
    expect(first.stderr).toContain(`adk resume ${id} --raise max_model_calls=4 goes on`);
    const waiting = ofType(first.lines, 'interrupt').at(-1)!;
    expect(waiting.interrupts).toMatchObject([{ kind: 'budget', budget: { name: 'max_model_calls', spent: 2, limit: 2 } }]);
    expect(server().chatRequests).toHaveLength(2);
    // Raised to 4: two more calls (the run counts on from 2, it does not start over), then it stops again.
    const second = await expectExit(['resume', id, '--json', '--allow', 'shell', '--raise', 'max_model_calls=4'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(4);
    expect(second.stderr).toContain('budget reached: max_model_calls (4 spent of 4)');
    // The history went on from where it stopped: the third request carries the first two calls' results.
    expect(JSON.stringify(server().chatRequests[2]!.body.messages)).toContain('touch step1.txt');
    await expectExit(['resume', id, '--json', '--allow', 'shell', '--raise', 'max_model_calls=10'], 0, { env, cwd });
    expect(server().chatRequests).toHaveLength(5);
    expect(['step0.txt', 'step3.txt', 'step4.txt'].map((f) => existsSync(join(cwd, f)))).toEqual([true, true, false]);
    // Nothing left to raise now.
    const none = await runCli(['resume', id, '--raise', 'max_cost=5'], { env, cwd });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('has no pending interrupts');
  });

  it("a sub-agent's budget interrupt is raised where it stopped, inside the agent tool", async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [{ id: 'h', name: 'helper', arguments: { request: 'help' } }] }, step(0), step(1), { content: 'helped' }, { content: 'boss done' });
    const first = await expectExit(['run', '--json', '--allow', 'shell', '--max-model-calls', '2', 'go'], 1, { env, cwd });
    const id = first.lines[0]!.sessionId as string;
    expect(ofType(first.lines, 'interrupt').at(-1)!.interrupts).toMatchObject([{ kind: 'budget', address: expect.stringContaining('tool:helper') }]);
    const r = await expectExit(['resume', id, '--json', '--allow', 'shell', '--raise', 'max-model-calls=9'], 0, { env, cwd });
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(server().chatRequests).toHaveLength(5);
    // The helper went on with its own history (its first call's result), not from scratch.
    expect(JSON.stringify(server().chatRequests[2]!.body.messages)).toContain('touch step0.txt');
  });

  it("--max-turns counts the run's own model calls, not those of agents run as tools", async () => {
    const { cwd, env } = setup();
    server().enqueue({ toolCalls: [{ id: 'h', name: 'helper', arguments: { request: 'help' } }] }, step(0), step(1), { content: 'helped' }, ...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', '--max-turns', '2', 'go'], 1, { env, cwd });
    // The boss's 2 turns and the helper's 3 calls in between.
    expect(server().chatRequests).toHaveLength(5);
    expect(r.stderr).toContain('budget reached: max_turns (2 spent of 2)');
  });

  it('--raise names a budget and a number', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever());
    const first = await expectExit(['run', '--json', '--allow', 'shell', '--max-model-calls', '1', 'go'], 1, { env, cwd });
    const id = first.lines[0]!.sessionId as string;
    for (const [value, message] of [
      ['max_money=5', "cannot raise 'max_money': budgets are max_turns, max_model_calls, max_tool_calls, max_tokens, max_cost"],
      ['max_cost', '--raise max_cost: expected budget=value'],
      ['max_model_calls=1.5', 'cannot raise max_model_calls to 1.5: give a whole number'],
    ]) {
      const r = await runCli(['resume', id, '--raise', value!], { env, cwd });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(message);
    }
    expect(server().chatRequests).toHaveLength(1);
  });
});

describe('budget: in an agents file', () => {
  it('caps each run of every face; a flag overrides its own limit only; a bad key names file:line:col', async () => {
    const cwd = tempDir('adk-budget-file-');
    writeAgentsFile(cwd, `version: 1\nbudget: { max_model_calls: 3, max_tool_calls: 1 }\n${AGENTS.split('\n').slice(1).join('\n')}`);
    const env = serverEnv(server(), 'sk-budget-key-000001', tempHome());
    server().enqueue(...forever());
    const r = await expectExit(['run', '--json', '--allow', 'shell', 'go'], 1, { env, cwd });
    expect(r.stderr).toContain('budget reached: max_tool_calls (1 spent of 1)');
    expect(server().chatRequests).toHaveLength(2);
    server().reset();
    server().enqueue(...forever());
    // --max-tool-calls 5 overrides the file's 1; the file's max_model_calls 3 still holds.
    const flagged = await expectExit(['run', '--json', '--allow', 'shell', '--max-tool-calls', '5', 'go'], 1, { env, cwd });
    expect(flagged.stderr).toContain("budget reached: max_model_calls (3 spent of 3)");
    writeAgentsFile(cwd, `version: 1\nbudget:\n  max_tool_call: 3\n${AGENTS.split('\n').slice(1).join('\n')}`);
    const bad = await runCli(['run', 'go'], { env, cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/agents\.yaml:3:3 budget\.max_tool_call: unknown budget 'max_tool_call' \(did you mean 'max_tool_calls'\?\)/);
  });
});

describe('daily budgets in ADK_HOME', () => {
  it('--max-daily-model-calls counts every run of the day on this store: the second run gets what is left', async () => {
    const { cwd, env } = setup();
    server().enqueue(...forever(), ...forever());
    const first = await expectExit(['run', '--json', '--allow', 'shell', '--max-daily-model-calls', '3', '--max-model-calls', '2', 'go'], 1, { env, cwd });
    expect(first.stderr).toContain('budget reached: max_model_calls (2 spent of 2)');
    const second = await expectExit(['run', '--json', '--allow', 'shell', '--max-daily-model-calls', '3', 'go'], 1, { env, cwd });
    expect(server().chatRequests).toHaveLength(3);
    expect(second.lines.at(-1)).toMatchObject({ type: 'done', status: 'incomplete', reason: 'budget' });
    expect(second.stderr).toMatch(/daily budget reached: max_daily_model_calls \(3 spent today of 3 on sqlite:\/\/.*\); it starts again at 00:00 UTC/);
  });
});

describe('budget: on an agent', () => {
  it("caps that agent's own model calls in a run: the interrupt names it; --raise goes on for it", async () => {
    const cwd = tempDir('adk-budget-agent-');
    writeAgentsFile(cwd, AGENTS.replace('    instruction: Help.\n', '    instruction: Help.\n    budget: { max_model_calls: 2 }\n'));
    const env = serverEnv(server(), 'sk-budget-key-000001', tempHome());
    server().enqueue({ toolCalls: [{ id: 'h', name: 'helper', arguments: { request: 'help' } }] }, step(1), step(2), step(3), { content: 'helped' }, { content: 'boss done' });
    const first = await expectExit(['run', '--json', '--allow', 'shell', 'go'], 1, { env, cwd });
    const id = first.lines[0]!.sessionId as string;
    // The boss's call and the helper's two: the helper stopped before its third.
    expect(server().chatRequests).toHaveLength(3);
    expect(ofType(first.lines, 'interrupt').at(-1)!.interrupts).toMatchObject([{ kind: 'budget', budget: { name: 'max_model_calls', spent: 2, limit: 2, agent: 'helper' } }]);
    expect(first.stderr).toContain("budget reached: max_model_calls of agent 'helper' (2 spent of 2)");
    const r = await expectExit(['resume', id, '--json', '--allow', 'shell', '--raise', 'max_model_calls=4'], 0, { env, cwd });
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'boss done' });
    expect(server().chatRequests).toHaveLength(6);
    // The helper's own spending is kept for the run: called again by the boss, it counts on from 4.
    server().reset();
    server().enqueue({ toolCalls: [{ id: 'h1', name: 'helper', arguments: { request: 'one' } }] }, { content: 'a' }, { toolCalls: [{ id: 'h2', name: 'helper', arguments: { request: 'two' } }] }, step(9), step(10));
    const pingpong = await expectExit(['run', '--json', '--allow', 'shell', 'go twice'], 1, { env, cwd });
    // boss, helper (1), boss, helper (2): the helper's cap of 2 is reached across its two activations.
    expect(server().chatRequests).toHaveLength(4);
    expect(ofType(pingpong.lines, 'interrupt').at(-1)!.interrupts).toMatchObject([{ kind: 'budget', budget: { spent: 2, limit: 2, agent: 'helper' } }]);
    // A bad key in the agent's budget is named where it is.
    writeAgentsFile(cwd, AGENTS.replace('    instruction: Help.\n', '    instruction: Help.\n    budget: { max_calls: 2 }\n'));
    const bad = await runCli(['run', 'go'], { env, cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/agents\.yaml:\d+:\d+ agents\.helper\.budget\.max_calls/);
  });
});
