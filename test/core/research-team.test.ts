import { describe, expect, it } from 'vitest';
import { ChatModelAgent, Runner, researchTeam, type AgentEvent, type ResearchPlan } from '../../src/core/index.js';
import { InMemoryCheckpointStore, ScriptedChatModel } from '../../src/core/entries/testing.js';
import { handoffToPlannerTool } from '../../src/core/entries/tools.js';
import type { Message } from '../../src/core/schema/message.js';

// Issue 33: Deer-Go's research graph (researchTeam) through the library API, every role a
// ChatModelAgent on a scripted model: routing on has_enough_context, the steps dispatched in order
// by step_type, the plan review and max_plan_iterations.

type Step = ResearchPlan['steps'][number];
const step = (title: string, type: Step['step_type']): Step => ({ need_search: type === 'research', title, description: `Do ${title}.`, step_type: type });
const planJson = (steps: Step[], enough = false) => JSON.stringify({ locale: 'en-US', has_enough_context: enough, thought: 'Think.', title: 'Sky', steps });
const systemOf = (messages: Message[]) => messages.find((m) => m.role === 'system')?.content ?? '';
const lastUserOf = (messages: Message[]) => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';

/** A research team whose roles log `role:<current step>` each time their model is called. */
function team(o: { plans: string[]; withCoder?: boolean }) {
  const log: string[] = [];
  const plannerInputs: string[] = [];
  let planned = 0;
  const role = (name: string, reply: (messages: Message[]) => string | { toolCalls: Array<{ name: string; arguments: unknown }> }) =>
    new ScriptedChatModel((messages) => {
      log.push(`${name}:${/Current step: ## (.+)/.exec(systemOf(messages))?.[1] ?? ''}`);
      const r = reply(messages);
      return typeof r === 'string' ? { content: r } : r;
    });
  const agent = researchTeam({
    name: 'research',
    coordinator: new ChatModelAgent({
      name: 'coordinator',
      description: 'c',
      instruction: 'Coordinate.',
      tools: [handoffToPlannerTool],
      returnDirectly: ['handoff_to_planner'],
      model: role('coordinator', (m) => (/^hi\b/.test(lastUserOf(m)) ? 'Hello there!' : { toolCalls: [{ name: 'handoff_to_planner', arguments: { research_topic: lastUserOf(m), locale: 'en-US' } }] })),
    }),
    planner: new ChatModelAgent({
      name: 'planner',
      description: 'p',
      instruction: 'Plan at most {max_step_num} steps.',
      model: role('planner', (m) => {
        plannerInputs.push(lastUserOf(m));
        return o.plans[Math.min(planned++, o.plans.length - 1)]!;
      }),
    }),
    researcher: new ChatModelAgent({ name: 'researcher', description: 'r', instruction: 'Research.\nCurrent step: {current_step}', model: role('researcher', (m) => `found ${/## (.+)/.exec(systemOf(m))?.[1]}`) }),
    ...(o.withCoder === false
      ? {}
      : { coder: new ChatModelAgent({ name: 'coder', description: 'k', instruction: 'Code.\nCurrent step: {current_step}', model: role('coder', (m) => `computed ${/## (.+)/.exec(systemOf(m))?.[1]}`) }) }),
    reporter: new ChatModelAgent({ name: 'reporter', description: 'w', instruction: 'Report on:\n{observations}', model: role('reporter', (m) => `REPORT from:\n${systemOf(m)}`) }),
  });
  return { agent, log, plannerInputs };
}

async function collect(run: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of run) out.push(e);
  return out;
}
const todosOf = (events: AgentEvent[]) =>
  events.map((e) => e.output?.custom as { type?: string; todos?: Array<{ status: string }> } | undefined).filter((c) => c?.type === 'todos').map((c) => c!.todos!.map((t) => t.status).join(','));

describe('researchTeam (Deer-Go\'s graph)', () => {
  it('small talk: the coordinator answers and nothing else runs', async () => {
    const { agent, log } = team({ plans: [planJson([step('A', 'research')])] });
    const r = await new Runner({ agent, tracing: false }).query('hi there').result;
    expect(r).toMatchObject({ status: 'completed', finalOutput: 'Hello there!' });
    expect(log).toEqual(['coordinator:']);
  });

  it('has_enough_context: true goes from the planner straight to the reporter, with no review', async () => {
    const { agent, log } = team({ plans: [planJson([step('A', 'research')], true)] });
    const r = await new Runner({ agent, tracing: false }).query('why is the sky blue').result;
    expect(r.status).toBe('completed');
    expect(r.interrupts).toEqual([]);
    expect(log).toEqual(['coordinator:', 'planner:', 'reporter:']);
    expect(r.lastAgent).toBe('reporter');
  });

  it('accepted plan: each step in order, research steps to the researcher, processing steps to the coder; progress as todos; the reporter gets every result', async () => {
    const { agent, log } = team({ plans: [planJson([step('A', 'research'), step('B', 'processing'), step('C', 'research')])] });
    const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore(), tracing: false });
    const first = await runner.query('why is the sky blue', { checkpointId: 'cp' }).result;
    expect(first.status).toBe('interrupted');
    expect(first.interrupts[0]!.info).toMatchObject({ kind: 'plan_review', plan: ['[research] A: Do A.', '[processing] B: Do B.', '[research] C: Do C.'] });
    expect(log).toEqual(['coordinator:', 'planner:']);
    const events = await collect(runner.resume('cp', { targets: { [first.interrupts[0]!.id]: { accept: true } } }));
    expect(log.slice(2)).toEqual(['researcher:A', 'coder:B', 'researcher:C', 'reporter:']);
    expect(todosOf(events)).toEqual(['in_progress,pending,pending', 'completed,in_progress,pending', 'completed,completed,in_progress', 'completed,completed,completed']);
    const report = events.at(-1)!.output?.message?.message?.content ?? '';
    expect(report).toMatch(/## A[\s\S]*found A[\s\S]*## B[\s\S]*computed B[\s\S]*## C[\s\S]*found C/);
  });

  it('without a coder the researcher works processing steps too; max_step_num cuts the plan', async () => {
    const { agent, log } = team({ plans: [planJson([step('A', 'processing'), step('B', 'research'), step('C', 'research')])], withCoder: false });
    const r = await new Runner({ agent, tracing: false }).query('why', { toolOptions: { research: { autoAcceptedPlan: true, maxStepNum: 2 } } }).result;
    expect(r.status).toBe('completed');
    expect(log).toEqual(['coordinator:', 'planner:', 'researcher:A', 'researcher:B', 'reporter:']);
  });

  it('max_plan_iterations: edits re-plan with the feedback until the limit, then the reporter writes without researching', async () => {
    const { agent, log, plannerInputs } = team({ plans: [planJson([step('A', 'research')]), planJson([step('A', 'research'), step('B', 'research')])] });
    const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore(), tracing: false });
    const options = { toolOptions: { research: { maxPlanIterations: 1 } } };
    const first = await runner.query('why', { checkpointId: 'cp', ...options }).result;
    const edited = await runner.resume('cp', { targets: { [first.interrupts[0]!.id]: { accept: false, feedback: 'add B' } } }, options).result;
    expect(edited.status).toBe('interrupted');
    expect(edited.interrupts[0]!.info).toMatchObject({ kind: 'plan_review', plan: ['[research] A: Do A.', '[research] B: Do B.'] });
    // The planner is asked again with the person's words, marked as DeerFlow marks them.
    expect(plannerInputs).toHaveLength(2);
    expect(plannerInputs[1]).toBe('[EDIT_PLAN] add B');
    // The limit is reached: another edit is not planned again; the reporter writes from the plan.
    const last = await runner.resume('cp', { targets: { [edited.interrupts[0]!.id]: { accept: false, feedback: 'more' } } }, options).result;
    expect(last.status).toBe('completed');
    expect(log).toEqual(['coordinator:', 'planner:', 'planner:', 'reporter:']);

    // With max_plan_iterations 0 the first edit goes to the reporter.
    const zero = team({ plans: [planJson([step('A', 'research')])] });
    const r0 = new Runner({ agent: zero.agent, checkpointStore: new InMemoryCheckpointStore(), tracing: false });
    const asked = await r0.query('why', { checkpointId: 'z', toolOptions: { research: { maxPlanIterations: 0 } } }).result;
    await r0.resume('z', { targets: { [asked.interrupts[0]!.id]: { accept: false, feedback: 'more' } } }, { toolOptions: { research: { maxPlanIterations: 0 } } }).result;
    expect(zero.log).toEqual(['coordinator:', 'planner:', 'reporter:']);
  });

  it('an answer that is neither accept nor feedback asks again, at the same point', async () => {
    const { agent, log } = team({ plans: [planJson([step('A', 'research')])] });
    const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore(), tracing: false });
    const first = await runner.query('why', { checkpointId: 'cp' }).result;
    const again = await runner.resume('cp', { targets: {} }).result;
    expect(again.status).toBe('interrupted');
    expect(again.interrupts[0]!.id).toBe(first.interrupts[0]!.id);
    expect(log).toEqual(['coordinator:', 'planner:']);
  });
});
