import { describe, expect, it } from 'vitest';
import { agentTool } from '../../src/core/agents/agent-tool.js';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { setSubAgents } from '../../src/core/agents/flow.js';
import type { Agent } from '../../src/core/agents/types.js';
import { LoopAgent, ParallelAgent, SequentialAgent } from '../../src/core/agents/workflow.js';
import { ConfigError } from '../../src/core/errors.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { deepAgent } from '../../src/core/prebuilt/deep/deep-agent.js';
import { agentWithDeterministicTransferTo } from '../../src/core/prebuilt/deterministic-transfer.js';
import { Executor, newExecutor, newPlanner, newReplanner, Planner, planExecute, Replanner } from '../../src/core/prebuilt/plan-execute/index.js';
import { supervisor } from '../../src/core/prebuilt/supervisor.js';
import { Runner } from '../../src/core/runner.js';

// Issue 29, item 2: every public constructor checks its options and throws a ConfigError that names
// the option (and, for a seed/Go spelling it does not take, the adk spelling), never a TypeError.

const model = () => new ScriptedChatModel([{ content: 'ok' }]);
const chat = (name: string, extra: Record<string, unknown> = {}) => new ChatModelAgent({ name, description: `${name} does things`, model: model(), ...extra });
const bare = (name: string): Agent => ({ name, description: undefined as any, async *run() {} });
const any = (v: unknown): any => v;

/** `works`: builds without throwing; a RegExp: a ConfigError whose message matches. */
type Expect = 'works' | RegExp;
const rows: Array<[label: string, build: () => unknown, expected: Expect]> = [
  // ChatModelAgent (Eino's ChatModelAgentConfig spellings)
  ['ChatModelAgent: no options', () => new ChatModelAgent(any(undefined)), /^ChatModelAgent: expected an options object/],
  ['ChatModelAgent: no name', () => new ChatModelAgent(any({ model: model() })), /^ChatModelAgent: option 'name' is required/],
  ['ChatModelAgent: no model', () => new ChatModelAgent(any({ name: 'a', description: 'd' })), /^ChatModelAgent 'a': option 'model' is required/],
  ['ChatModelAgent: Go spelling', () => new ChatModelAgent(any({ Name: 'a', Description: 'd', Model: model() })), /^ChatModelAgent: unknown option 'Name'; did you mean 'name'\?/],
  ['ChatModelAgent: ToolsConfig', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: model(), ToolsConfig: { Tools: [] } })), /unknown option 'ToolsConfig'; did you mean 'tools'\?/],
  ['ChatModelAgent: Handlers', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: model(), Handlers: [] })), /unknown option 'Handlers'; did you mean 'middlewares'\?/],
  ['ChatModelAgent: ModelRetryConfig', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: model(), ModelRetryConfig: {} })), /unknown option 'ModelRetryConfig'; did you mean 'retry'\?/],
  ['ChatModelAgent: model as a string', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: 'gpt-4o' })), /option 'model' must be a chat model/],
  ['ChatModelAgent: a tool that is not one', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: model(), tools: [undefined] })), /option 'tools\[0\]' must be a tool/],
  ['ChatModelAgent: maxIterations as text', () => new ChatModelAgent(any({ name: 'a', description: 'd', model: model(), maxIterations: '5' })), /option 'maxIterations' must be a number/],
  ['ChatModelAgent: description not text', () => new ChatModelAgent(any({ name: 'a', description: 5, model: model() })), /option 'description' must be a string/],
  ['ChatModelAgent: valid', () => chat('a'), 'works'],
  // Workflow agents (Eino's SequentialAgentConfig / ParallelAgentConfig / LoopAgentConfig)
  ['SequentialAgent: Go spelling', () => new SequentialAgent(any({ Name: 's', SubAgents: [chat('a')] })), /^SequentialAgent: unknown option 'Name'; did you mean 'name'\?/],
  ['SequentialAgent: no options', () => new SequentialAgent(any(undefined)), /^SequentialAgent: expected an options object/],
  ['SequentialAgent: no subAgents', () => new SequentialAgent(any({ name: 's' })), /^SequentialAgent 's': option 'subAgents' is required/],
  ['SequentialAgent: a sub-agent that is not one', () => new SequentialAgent(any({ name: 's', subAgents: [undefined] })), /^SequentialAgent 's': option 'subAgents\[0\]' must be an agent/],
  ['SequentialAgent: valid', () => new SequentialAgent({ name: 's', subAgents: [chat('a')] }), 'works'],
  ['ParallelAgent: Go spelling', () => new ParallelAgent(any({ name: 'p', SubAgents: [chat('a')] })), /^ParallelAgent 'p': unknown option 'SubAgents'; did you mean 'subAgents'\?/],
  ['ParallelAgent: subAgents not a list', () => new ParallelAgent(any({ name: 'p', subAgents: chat('a') })), /option 'subAgents' must be a list of agents/],
  ['ParallelAgent: valid', () => new ParallelAgent({ name: 'p', subAgents: [chat('a'), chat('b')] }), 'works'],
  ['LoopAgent: Go spelling', () => new LoopAgent(any({ name: 'l', subAgents: [chat('a')], MaxIterations: 3 })), /^LoopAgent 'l': unknown option 'MaxIterations'; did you mean 'maxIterations'\?/],
  ['LoopAgent: maxIterations negative', () => new LoopAgent(any({ name: 'l', subAgents: [chat('a')], maxIterations: -1 })), /option 'maxIterations' must be a whole number, 0 or more/],
  ['LoopAgent: valid', () => new LoopAgent({ name: 'l', subAgents: [chat('a')], maxIterations: 2 }), 'works'],
  // supervisor (the seed's `Workers`, Eino's `Supervisor`/`SubAgents`)
  ['supervisor: workers', () => supervisor(any({ supervisor: chat('sup'), workers: [chat('w')] })), /^supervisor: unknown option 'workers'; did you mean 'subAgents'\?/],
  ['supervisor: Go spelling', () => supervisor(any({ Supervisor: chat('sup'), SubAgents: [chat('w')] })), /^supervisor: unknown option 'Supervisor'; did you mean 'supervisor'\?/],
  ['supervisor: no supervisor', () => supervisor(any({ subAgents: [chat('w')] })), /^supervisor: option 'supervisor' is required/],
  ['supervisor: no subAgents', () => supervisor(any({ supervisor: chat('sup') })), /^supervisor: option 'subAgents' is required/],
  ['supervisor: a sub-agent that is not one', () => supervisor(any({ supervisor: chat('sup'), subAgents: [{}] })), /^supervisor: option 'subAgents\[0\]' must be an agent/],
  ['supervisor: valid', () => supervisor({ supervisor: chat('sup'), subAgents: [chat('w')] }), 'works'],
  // planExecute (the seed: Planner, Executor, MaxIterations and no replanner)
  ['planExecute: the seed form', () => planExecute(any({ Planner: newPlanner({ model: model() }), Executor: newExecutor({ model: model() }), MaxIterations: 10 })), /^planExecute: unknown option 'Planner'; did you mean 'planner'\?/],
  [
    'planExecute: no replanner',
    () => planExecute(any({ planner: newPlanner({ model: model() }), executor: newExecutor({ model: model() }), maxIterations: 10 })),
    /^planExecute: option 'replanner' is required: .*the replanner/,
  ],
  ['planExecute: no options', () => planExecute(any(undefined)), /^planExecute: expected an options object/],
  ['planExecute: executor not an agent', () => planExecute(any({ planner: newPlanner({ model: model() }), executor: model(), replanner: newReplanner({ model: model() }) })), /option 'executor' must be an agent/],
  ['planExecute: valid', () => planExecute({ planner: newPlanner({ model: model() }), executor: newExecutor({ model: model() }), replanner: newReplanner({ model: model() }) }), 'works'],
  // Planner / Executor / Replanner (Eino's NewPlanner / NewExecutor / NewReplanner configs)
  ['Planner: ToolCallingChatModel', () => new Planner(any({ ToolCallingChatModel: model() })), /^Planner: unknown option 'ToolCallingChatModel'; did you mean 'model'\?/],
  ['Planner: ChatModelWithFormattedOutput', () => newPlanner(any({ ChatModelWithFormattedOutput: model() })), /unknown option 'ChatModelWithFormattedOutput'; did you mean 'model'\?/],
  ['Planner: no model', () => newPlanner(any({})), /^Planner: option 'model' is required/],
  ['Planner: no options', () => newPlanner(any(undefined)), /^Planner: expected an options object/],
  ['Executor: Model', () => new Executor(any({ Model: model() })), /^Executor: unknown option 'Model'; did you mean 'model'\?/],
  ['Executor: ToolsConfig', () => newExecutor(any({ model: model(), ToolsConfig: {} })), /unknown option 'ToolsConfig'; did you mean 'tools'\?/],
  ['Executor: GenInputFn', () => newExecutor(any({ model: model(), GenInputFn: () => [] })), /unknown option 'GenInputFn'; did you mean 'genInput'\?/],
  ['Executor: no model', () => newExecutor(any({})), /^Executor: option 'model' is required/],
  ['Replanner: ChatModel', () => new Replanner(any({ ChatModel: model() })), /^Replanner: unknown option 'ChatModel'; did you mean 'model'\?/],
  ['Replanner: PlanTool', () => newReplanner(any({ model: model(), PlanTool: {} })), /^Replanner: unknown option 'PlanTool' \(options: model, instruction, genInput, retry\)/],
  ['Replanner: model not a model', () => newReplanner(any({ model: {} })), /option 'model' must be a chat model/],
  ['Planner / Executor / Replanner: valid', () => [newPlanner({ model: model() }), newExecutor({ model: model() }), newReplanner({ model: model() })], 'works'],
  // deepAgent (Eino's deep.Config)
  ['deepAgent: Go spelling', () => deepAgent(any({ Name: 'd', Description: 'x', ChatModel: model() })), /^deepAgent: unknown option 'Name'; did you mean 'name'\?/],
  ['deepAgent: ChatModel', () => deepAgent(any({ name: 'd', description: 'x', ChatModel: model() })), /^deepAgent 'd': unknown option 'ChatModel'; did you mean 'model'\?/],
  ['deepAgent: MaxIteration', () => deepAgent(any({ name: 'd', description: 'x', model: model(), MaxIteration: 5 })), /unknown option 'MaxIteration'; did you mean 'maxIterations'\?/],
  ['deepAgent: WithoutGeneralSubAgent', () => deepAgent(any({ name: 'd', description: 'x', model: model(), WithoutGeneralSubAgent: true })), /unknown option 'WithoutGeneralSubAgent'; did you mean 'generalPurpose: false'\?/],
  ['deepAgent: no model', () => deepAgent(any({ name: 'd', description: 'x' })), /^deepAgent 'd': option 'model' is required/],
  ['deepAgent: a sub-agent that is not one', () => deepAgent(any({ name: 'd', description: 'x', model: model(), subAgents: [null] })), /option 'subAgents\[0\]' must be an agent/],
  ['deepAgent: valid', () => deepAgent({ name: 'd', description: 'x', model: model(), subAgents: [chat('helper')] }), 'works'],
  // agentWithDeterministicTransferTo (Eino's DeterministicTransferConfig)
  ['agentWithDeterministicTransferTo: Go spelling', () => agentWithDeterministicTransferTo(any({ Agent: chat('a'), ToAgentNames: ['b'] })), /^agentWithDeterministicTransferTo: unknown option 'Agent'; did you mean 'agent'\?/],
  ['agentWithDeterministicTransferTo: no agent', () => agentWithDeterministicTransferTo(any({ toAgentNames: ['b'] })), /option 'agent' is required/],
  ['agentWithDeterministicTransferTo: one name', () => agentWithDeterministicTransferTo(any({ agent: chat('a'), toAgentNames: 'b' })), /option 'toAgentNames' must be a list of agent names/],
  ['agentWithDeterministicTransferTo: valid', () => agentWithDeterministicTransferTo({ agent: chat('a'), toAgentNames: ['b'] }), 'works'],
  // agentTool (Eino's NewAgentTool options)
  ['agentTool: no agent', () => agentTool(any(undefined)), /^agentTool: the agent is required/],
  ['agentTool: WithFullChatHistoryAsInput', () => agentTool(chat('a'), any({ WithFullChatHistoryAsInput: true })), /^agentTool 'a': unknown option 'WithFullChatHistoryAsInput'; did you mean 'fullChatHistoryAsInput'\?/],
  ['agentTool: EmitInternalEvents', () => agentTool(chat('a'), any({ EmitInternalEvents: true })), /unknown option 'EmitInternalEvents'; did you mean 'emitInternalEvents'\?/],
  ['agentTool: valid', () => agentTool(chat('a'), { emitInternalEvents: true }), 'works'],
  // setSubAgents and the Runner
  ['setSubAgents: a sub-agent that is not one', () => setSubAgents(chat('p'), any([undefined])), /^setSubAgents: sub-agent 0 of 'p' must be an agent/],
  ['setSubAgents: no agent', () => setSubAgents(any(undefined), [chat('s')]), /^setSubAgents: the agent must be an agent/],
  ['Runner: no agent', () => new Runner(any({})), /must be an agent/],
  ['Runner: valid', () => new Runner({ agent: chat('a') }), 'works'],
  // A description where a parent routes by it (item 3) is checked where the route is made.
  ['supervisor: a worker without a description', () => supervisor({ supervisor: chat('sup'), subAgents: [bare('w')] }), /'w'.*description/],
];

describe('public constructors check their options (issue 29, item 2)', () => {
  it('each seed spelling and each missing or wrong option is a ConfigError naming it, never a TypeError', () => {
    const wrong: string[] = [];
    for (const [label, build, expected] of rows) {
      let thrown: unknown;
      try {
        build();
      } catch (e) {
        thrown = e;
      }
      const said = thrown === undefined ? 'built' : `${(thrown as Error)?.name}: ${(thrown as Error)?.message}`;
      if (expected === 'works') {
        if (thrown !== undefined) wrong.push(`${label}: expected to build, got ${said}`);
      } else if (!(thrown instanceof ConfigError) || !expected.test(thrown.message)) {
        wrong.push(`${label}: expected ConfigError ${expected}, got ${said}`);
      }
      if (thrown instanceof TypeError) wrong.push(`${label}: TypeError`);
    }
    expect(wrong).toEqual([]);
  });
});
