import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentTool } from '../../src/core/agents/agent-tool.js';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { newExecutor, newPlanner, newReplanner, planExecute } from '../../src/core/prebuilt/plan-execute/index.js';
import { supervisor } from '../../src/core/prebuilt/supervisor.js';
import { Runner } from '../../src/core/runner.js';
import { startOpenAIServer, type OpenAITestServer, type RecordedRequest } from '../support/openai-server.js';
import { collect, describeAll } from './helpers.js';

let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer({ apiKey: 'sk-test' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

/** One model name per agent, so each HTTP request shows which agent made it. */
const model = (name: string) => new OpenAIChatModel({ model: name, apiKey: 'sk-test', baseURL: server.url });
const agent = (name: string, description = `${name} agent`, extra: Partial<ConstructorParameters<typeof ChatModelAgent>[0]> = {}) =>
  new ChatModelAgent({ name, description, model: model(`${name}-model`), retry: { maxRetries: 0 }, ...extra });

const transfer = (to: string) => ({ toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: to } }] });
const requestsOf = (name: string): RecordedRequest[] => server.chatRequests.filter((r) => r.body.model === `${name}-model`);

/** Every tool call's arguments in every request the agents sent must be JSON a provider accepts. */
function expectJsonToolArguments(): number {
  let count = 0;
  for (const r of server.chatRequests) {
    for (const m of r.body.messages) {
      for (const c of m.tool_calls ?? []) {
        expect(() => JSON.parse(c.function.arguments), `${r.body.model}: ${c.function.arguments}`).not.toThrow();
        count++;
      }
    }
  }
  return count;
}

describe('multi-agent teams over the openai SDK', () => {
  it('a supervisor team: sub-agents see rewritten context and replay valid JSON transfer calls', async () => {
    server.enqueue(
      transfer('Researcher'),
      { content: 'Notes: transformers, 2017.' },
      transfer('Researcher'),
      { content: 'More notes: scaling laws.' },
      { content: 'Final report.' },
    );
    const team = supervisor({ supervisor: agent('Lead', 'Coordinates.', { instruction: 'You lead.' }), subAgents: [agent('Researcher', 'Finds facts.')] });
    const events = await collect(new Runner({ agent: team, enableStreaming: true }).query('Report on LLMs.'));

    expect((await describeAll(events)).map((l) => l.split(' "')[0])).toEqual([
      'Lead [Lead] assistant calls=transfer_to_agent',
      'Lead [Lead] tool:transfer_to_agent',
      'Researcher [Lead>Researcher] assistant',
      'Researcher [Lead>Researcher] assistant calls=transfer_to_agent',
      'Researcher [Lead>Researcher] tool:transfer_to_agent',
      'Lead [Lead>Researcher>Lead] assistant calls=transfer_to_agent',
      'Lead [Lead>Researcher>Lead] tool:transfer_to_agent',
      'Researcher [Lead>Researcher>Lead>Researcher] assistant',
      'Researcher [Lead>Researcher>Lead>Researcher] assistant calls=transfer_to_agent',
      'Researcher [Lead>Researcher>Lead>Researcher] tool:transfer_to_agent',
      'Lead [Lead>Researcher>Lead>Researcher>Lead] assistant',
    ]);

    // The researcher's first request: the lead's messages rewritten as context.
    const [first, second] = requestsOf('Researcher');
    expect(first.body.messages).toEqual([
      { role: 'user', content: 'Report on LLMs.' },
      { role: 'user', content: 'For context: [Lead] called tool: `transfer_to_agent` with arguments: {"agent_name":"Researcher"}.' },
      { role: 'user', content: 'For context: [Lead] `transfer_to_agent` tool returned result: successfully transferred to agent [Researcher].' },
    ]);
    expect(first.body.tools).toBeUndefined();

    // Its second request replays its own generated transfer back to the lead as a real tool call.
    const own = second.body.messages.filter((m: { role: string }) => m.role === 'assistant' || m.role === 'tool');
    expect(own).toHaveLength(3);
    expect(own[0]).toEqual({ role: 'assistant', content: 'Notes: transformers, 2017.' });
    expect(own[1].tool_calls).toHaveLength(1);
    expect(own[1].tool_calls[0].function).toEqual({ name: 'transfer_to_agent', arguments: '{"agent_name":"Lead"}' });
    expect(own[2]).toMatchObject({ role: 'tool', tool_call_id: own[1].tool_calls[0].id, content: 'successfully transferred to agent [Lead]' });
    expect(second.body.messages).toContainEqual({ role: 'user', content: 'For context: [Lead] called tool: `transfer_to_agent` with arguments: {"agent_name":"Researcher"}.' });

    // The lead's last request sees the researcher's work and generated transfers as context.
    const lead = requestsOf('Lead');
    expect(lead).toHaveLength(3);
    expect(lead[2].body.messages[0]).toMatchObject({ role: 'system' });
    expect(lead[2].body.messages[0].content).toContain('You lead.\n\nAvailable other agents: \n- Agent name: Researcher\n  Agent description: Finds facts.');
    expect(lead[2].body.messages).toContainEqual({ role: 'user', content: 'For context: [Researcher] said: More notes: scaling laws..' });
    expect(lead[2].body.messages).toContainEqual({
      role: 'user',
      content: 'For context: [Researcher] called tool: `transfer_to_agent` with arguments: {"agent_name":"Lead"}.',
    });
    // Lead replays its own 1 then 2 transfer calls; the researcher its 1 generated call.
    expect(expectJsonToolArguments()).toBe(4);
  });

  it('plan-execute: forced tool choices and Eino prompts reach the endpoint', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'plan', arguments: { steps: ['look it up'] } }] },
      { content: 'It is 42.' },
      { toolCalls: [{ name: 'respond', arguments: { response: 'The answer is 42.' } }] },
    );
    const pe = planExecute({
      planner: newPlanner({ model: model('planner-model'), retry: { maxRetries: 0 } }),
      executor: newExecutor({ model: model('executor-model'), retry: { maxRetries: 0 } }),
      replanner: newReplanner({ model: model('replanner-model'), retry: { maxRetries: 0 } }),
    });
    const events = await collect(new Runner({ agent: pe, enableStreaming: true }).query('What is the answer?'));
    expect(events[events.length - 1].action?.breakLoop).toMatchObject({ from: 'replanner', done: true, currentIterations: 0 });

    const [planner, executor, replanner] = server.chatRequests;
    expect(planner.body.tool_choice).toEqual({ type: 'function', function: { name: 'plan' } });
    expect(planner.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['plan']);
    expect(planner.body.messages[1]).toEqual({ role: 'user', content: 'What is the answer?' });
    expect(executor.body.tools).toBeUndefined();
    expect(executor.body.messages[1].content).toContain('## Your task is to execute the first step, which is: \nlook it up');
    expect(replanner.body.tool_choice).toBe('required');
    expect(replanner.body.messages[1].content).toContain('## COMPLETED STEPS & RESULTS\nStep: look it up\nResult: It is 42.\n\n');
  });

  it('an agent tool over HTTP, with internal events', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'Helper', arguments: { request: 'Say hi.' } }] },
      { content: 'hi!' },
      { content: 'Helper said hi!' },
    );
    const outer = agent('Main', 'Main agent', { tools: [agentTool(agent('Helper', 'Says hi.'), { emitInternalEvents: true })] });
    const events = await collect(new Runner({ agent: outer, enableStreaming: true }).query('Ask the helper.'));
    expect(await describeAll(events)).toEqual([
      'Main [Main] assistant calls=Helper',
      'Helper [Main>Helper] assistant "hi!"',
      'Main [Main] tool:Helper "hi!"',
      'Main [Main] assistant "Helper said hi!"',
    ]);
    expect(requestsOf('Helper')[0].body.messages).toEqual([{ role: 'user', content: 'Say hi.' }]);
    expect(requestsOf('Main')[1].body.tools[0].function).toEqual({
      name: 'Helper',
      description: 'Says hi.',
      parameters: { type: 'object', properties: { request: { type: 'string', description: 'request to be processed' } }, required: ['request'] },
    });
    expectJsonToolArguments();
  });
});
