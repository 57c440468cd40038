import { describe, expect, it } from 'vitest';
import { toFlowAgent } from '../../src/core/agents/flow.js';
import { createRunContext } from '../../src/core/agents/run-context.js';
import { eventMessage } from '../../src/core/agents/types.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { ScriptedChatModel, type ScriptedReply } from '../../src/core/models/scripted.js';
import {
  EXECUTOR_SYSTEM_PROMPT,
  newExecutor,
  newPlanner,
  newReplanner,
  PLAN_TOOL,
  planExecute,
  PLANNER_PROMPT,
  REPLANNER_SYSTEM_PROMPT,
  RESPOND_TOOL,
} from '../../src/core/prebuilt/plan-execute/index.js';
import { Runner } from '../../src/core/runner.js';
import { RunBudget } from '../../src/core/agents/run-budget.js';
import { userMessage } from '../../src/core/schema/message.js';
import { collect, describeAll, roles } from './helpers.js';

const plan = (...steps: string[]) => ({ toolCalls: [{ name: 'plan', arguments: { steps } }] });
const respond = (response: string) => ({ toolCalls: [{ name: 'respond', arguments: { response } }] });

function team(opts: { review?: boolean; planner?: ConstructorParameters<typeof ScriptedChatModel>[0] } = {}) {
  const plannerModel = new ScriptedChatModel(opts.planner ?? [plan('find facts', 'write summary')]);
  const executorModel = new ScriptedChatModel([{ content: 'facts found' }, { content: 'summary written' }]);
  const replannerModel = new ScriptedChatModel([plan('write summary'), respond('Here is the summary.')]);
  const agent = planExecute({
    planner: newPlanner({ model: plannerModel, review: opts.review }),
    executor: newExecutor({ model: executorModel }),
    replanner: newReplanner({ model: replannerModel }),
  });
  return { agent, plannerModel, executorModel, replannerModel };
}

describe('planExecute', () => {
  it("counts the planner's and replanner's calls against the run's budget (issue 44): the run stops before the call past it", async () => {
    // (a replanner call past the budget would throw BudgetExceededError: the run ends incomplete, reason budget)
    const { agent, plannerModel, executorModel, replannerModel } = team();
    const budget = new RunBudget({ maxModelCalls: 3 });
    const events = await collect(new Runner({ agent }).query('Summarize the facts.', { budget }));
    // planner, executor, replanner: three calls; the executor's second call would be the fourth.
    expect(plannerModel.calls.length + executorModel.calls.length + replannerModel.calls.length).toBe(3);
    expect(budget.modelCalls).toBe(3);
    // The executor (a ChatModelAgent) stops at its next call with the budget interrupt, to be raised.
    const stop = events.find((e) => e.action?.interrupted)?.action?.interrupted?.contexts[0];
    expect(stop?.info).toMatchObject({ kind: 'budget', budget: { name: 'max_model_calls', spent: 3, limit: 3 } });
  });

  it('plans, executes and replans until respond, with Eino prompts, tools and session keys', async () => {
    const { agent, plannerModel, executorModel, replannerModel } = team();
    expect(agent.name).toBe('plan_execute_replan');
    const ctx = createRunContext();
    const events = await collect(toFlowAgent(agent).run({ messages: [userMessage('Summarize the facts.')] }, ctx));

    const P = 'plan_execute_replan>planner>execute_replan';
    expect(await describeAll(events)).toEqual([
      'planner [plan_execute_replan>planner] assistant "{"steps":["find facts","write summary"]}"',
      `executor [${P}>executor] assistant "facts found"`,
      `replanner [${P}>executor>replanner] assistant "{"steps":["write summary"]}"`,
      `executor [${P}>executor>replanner>executor] assistant "summary written"`,
      // The answer as text, with the respond arguments as `structured` (Eino shows the JSON text).
      `replanner [${P}>executor>replanner>executor>replanner] assistant "Here is the summary."`,
      `replanner [${P}>executor>replanner>executor>replanner] structured={"response":"Here is the summary."}`,
      `replanner [${P}>executor>replanner>executor>replanner] -> break:replanner:done@1`,
    ]);

    // Planner: Eino's prompt, the plan tool forced.
    expect(roles(plannerModel.calls[0].messages)).toEqual([
      ['system', PLANNER_PROMPT],
      ['user', 'Summarize the facts.'],
    ]);
    expect(plannerModel.calls[0].options?.tools).toEqual([PLAN_TOOL]);
    expect(plannerModel.calls[0].options?.toolChoice).toEqual({ name: 'plan' });

    // Executor: Eino's ExecutorPrompt with the first step; no tools.
    expect(roles(executorModel.calls[0].messages)).toEqual([
      ['system', EXECUTOR_SYSTEM_PROMPT],
      [
        'user',
        '## OBJECTIVE\nSummarize the facts.\n\n## Given the following plan:\n{"steps":["find facts","write summary"]}\n## COMPLETED STEPS & RESULTS\n\n## Your task is to execute the first step, which is: \nfind facts',
      ],
    ]);
    expect(executorModel.calls[1].messages[1].content).toBe(
      '## OBJECTIVE\nSummarize the facts.\n\n## Given the following plan:\n{"steps":["write summary"]}\n## COMPLETED STEPS & RESULTS\nStep: find facts\nResult: facts found\n\n\n## Your task is to execute the first step, which is: \nwrite summary',
    );

    // Replanner: tool names filled into the system prompt; both tools; a tool call required.
    const system = replannerModel.calls[0].messages[0].content;
    expect(system).toBe(REPLANNER_SYSTEM_PROMPT.replace('{respond_tool}', 'respond').replace('{plan_tool}', 'plan'));
    expect(system).toContain("Call 'respond' with:");
    expect(replannerModel.calls[0].messages[1].content).toBe(
      '## OBJECTIVE\nSummarize the facts.\n\n\n## ORIGINAL PLAN\n{"steps":["find facts","write summary"]}\n\n## COMPLETED STEPS & RESULTS\nStep: find facts\nResult: facts found\n\n',
    );
    expect(replannerModel.calls[0].options?.tools).toEqual([PLAN_TOOL, RESPOND_TOOL]);
    expect(replannerModel.calls[0].options?.toolChoice).toBe('required');

    expect(ctx.session.values).toEqual({
      UserInput: [userMessage('Summarize the facts.')],
      Plan: { steps: ['write summary'] },
      ExecutedStep: 'summary written',
      ExecutedSteps: [
        { step: 'find facts', result: 'facts found' },
        { step: 'write summary', result: 'summary written' },
      ],
    });
  });

  it('stops after maxIterations rounds', async () => {
    const replannerModel = new ScriptedChatModel(() => plan('again'));
    const executorModel = new ScriptedChatModel(() => ({ content: 'did it' }));
    const agent = planExecute({
      planner: newPlanner({ model: new ScriptedChatModel([plan('again')]) }),
      executor: newExecutor({ model: executorModel }),
      replanner: newReplanner({ model: replannerModel }),
      maxIterations: 3,
    });
    await collect(new Runner({ agent }).query('loop'));
    expect(executorModel.calls).toHaveLength(3);
    expect(replannerModel.calls).toHaveLength(3);
  });

  it('reports a planner answer without a tool call, and a malformed plan', async () => {
    const cases: Array<[ScriptedReply[], string]> = [
      // Text twice (asked again once, with the reminder): a server that ignores tool_choice.
      [[{ content: 'no plan' }, { content: 'still no plan' }], 'no tool call'],
      [[{ toolCalls: [{ name: 'plan', arguments: { steps: 'x' } }] }], 'unmarshal plan error: "steps" must be an array of strings'],
      [[{ toolCalls: [{ name: 'plan', arguments: '{"steps": [' }] }], 'unmarshal plan error: '],
    ];
    for (const [replies, message] of cases) {
      const agent = planExecute({
        planner: newPlanner({ model: new ScriptedChatModel(replies) }),
        executor: newExecutor({ model: new ScriptedChatModel([]) }),
        replanner: newReplanner({ model: new ScriptedChatModel([]) }),
      });
      const events = await collect(new Runner({ agent }).query('x'));
      expect((await describeAll(events.slice(-1)))[0]).toContain(`planner [plan_execute_replan>planner] error: ${message}`);
    }
  });

  it('streams the plan arguments as the planner text', async () => {
    const { agent } = team();
    const events = await collect(new Runner({ agent, enableStreaming: true }).query('Summarize the facts.'));
    expect(events[0].output?.message?.isStreaming).toBe(true);
    expect((await eventMessage(events[0]))?.content).toBe('{"steps":["find facts","write summary"]}');
    expect(events[events.length - 1].action?.breakLoop?.done).toBe(true);
  });

  it('plan review: accepted, the plan runs as proposed', async () => {
    const { agent, executorModel } = team({ review: true });
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent, checkpointStore: store });
    const first = await collect(runner.query('Summarize the facts.', { checkpointId: 'pe' }));
    const last = first[first.length - 1];
    expect(last.runPath).toEqual(['plan_execute_replan', 'planner']);
    const ctx = last.action!.interrupted!.contexts[0];
    expect(ctx.address).toBe('agent:plan_execute_replan;agent:planner');
    expect(ctx.info).toEqual({ kind: 'plan_review', message: 'Review the plan', plan: ['find facts', 'write summary'] });
    expect(executorModel.calls).toHaveLength(0);

    const rest = await collect(runner.resume('pe', { targets: { [ctx.id]: { accept: true } } }));
    expect(executorModel.calls[0].messages[1].content).toContain('which is: \nfind facts');
    expect(rest[rest.length - 1].action?.breakLoop).toMatchObject({ from: 'replanner', done: true });
  });

  it('plan review: feedback makes the planner revise the plan, which is reviewed again', async () => {
    const { agent, plannerModel, executorModel } = team({
      review: true,
      planner: [plan('find facts', 'write summary'), plan('check sources', 'write summary')],
    });
    const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() });
    const first = await collect(runner.query('Summarize the facts.', { checkpointId: 'pe' }));
    const id = first[first.length - 1].action!.interrupted!.contexts[0].id;

    // Not answered: asked again under the same id, without calling the model.
    const again = await collect(runner.resume('pe'));
    expect(again.map((e) => e.action?.interrupted?.contexts[0].id)).toEqual([id]);
    expect(plannerModel.calls).toHaveLength(1);

    const revised = await collect(runner.resume('pe', { targets: { [id]: { accept: false, feedback: 'Check the sources first.' } } }));
    expect(roles(plannerModel.calls[1].messages)).toEqual([
      ['system', PLANNER_PROMPT],
      ['user', 'Summarize the facts.'],
      ['assistant', '{"steps":["find facts","write summary"]}'],
      ['user', "The plan was not accepted. Feedback from the user: Check the sources first.\nRevise the plan accordingly and call 'plan' with the complete revised plan."],
    ]);
    const second = revised[revised.length - 1].action!.interrupted!.contexts[0];
    expect(second.info).toMatchObject({ kind: 'plan_review', plan: ['check sources', 'write summary'] });
    expect(executorModel.calls).toHaveLength(0);

    await collect(runner.resume('pe', { targets: { [second.id]: { accept: true } } }));
    expect(executorModel.calls[0].messages[1].content).toContain('{"steps":["check sources","write summary"]}');
    expect(executorModel.calls[0].messages[1].content).toContain('which is: \ncheck sources');
  });
});

describe('plan_execute in agents.yaml', () => {
  it('each part’s `instruction` is its system prompt (executor and replanner too), with the plan’s values filled in', async () => {
    const { createTeam, validateConfig, formatProblems } = await import('../../src/core/config/index.js');
    const text = `version: 1
agents:
  pe:
    type: plan_execute
    description: Plans and does.
    planner: { instruction: "Plan briefly." }
    executor: { instruction: "Do only {step}, nothing more." }
    replanner: { instruction: "Decide: call {respond_tool} or {plan_tool}." }
`;
    const r = validateConfig({ text }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    // The parts share the file's one model: its calls are the planner's, the executor's, the replanner's.
    const model = new ScriptedChatModel([plan('find facts'), { content: 'facts found' }, respond('Done.')]);
    const agent = await createTeam(r.config!, { model: () => model, tools: async () => [] }, 'pe');
    await collect(toFlowAgent(agent).run({ messages: [userMessage('Go.')] }, createRunContext()));
    const [planner, executor, replanner] = model.calls;
    expect(planner!.messages[0]).toMatchObject({ role: 'system', content: 'Plan briefly.' });
    expect(executor!.messages[0]).toMatchObject({ role: 'system', content: 'Do only find facts, nothing more.' });
    expect(executor!.messages[1]!.content).toContain('## Your task is to execute the first step');
    expect(replanner!.messages[0]).toMatchObject({ role: 'system', content: 'Decide: call respond or plan.' });
  });
});
