import { describe, expect, it } from 'vitest';
import type { Agent, AgentEvent, AgentInput } from '../../src/core/agents/types.js';
import type { RunContext } from '../../src/core/agents/run-context.js';
import { interruptAction, makeSignal, type ResumeInfo } from '../../src/core/interrupt.js';
import { assistantMessage } from '../../src/core/schema/message.js';
import { messageEvent } from '../../src/core/agents/events.js';
import { Runner } from '../../src/core/runner.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { checkpointJson, collect, errorsOf, messagesOf } from './helpers.js';

const say = (text: string): AgentEvent => messageEvent(assistantMessage(text));

/**
 * A custom agent that interrupts as a Go agent does (Eino's `AgentAction{Interrupted: &InterruptInfo{Data}}`):
 * no adk signal, only `data`. Its resume records what it was given and answers with it.
 */
class GoStyleAgent implements Agent {
  readonly name = 'custom';
  readonly description = 'asks before it goes on';
  resumed: ResumeInfo[] = [];

  async *run(_input: AgentInput): AsyncIterable<AgentEvent> {
    yield say('about to ask');
    yield { agentName: this.name, runPath: [], action: { interrupted: { data: { question: 'proceed?' } } } } as unknown as AgentEvent;
  }

  async *resume(info: ResumeInfo): AsyncIterable<AgentEvent> {
    this.resumed.push(info);
    yield say(`answer: ${String(info.data)}`);
  }
}

describe('a custom agent that interrupts Go-style ({ interrupted: { data } })', () => {
  it('interrupts the run with data as the info, saves a checkpoint and resumes by id', async () => {
    const agent = new GoStyleAgent();
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent, checkpointStore: store, tracing: false });
    const run = runner.query('go', { checkpointId: 'cp' });
    const events = await collect(run);
    const result = await run.result;

    expect(errorsOf(events).map((e) => e.message)).toEqual([]);
    expect(result.status).toBe('interrupted');
    expect(result.interrupts).toEqual([{ id: expect.any(String), address: 'agent:custom', info: { question: 'proceed?' } }]);
    expect(result.checkpointId).toBe('cp');
    const interrupt = events.find((e) => e.action?.interrupted)!.action!.interrupted!;
    // Eino's Runner keeps the agent's Data on the rebuilt action, next to the contexts.
    expect(interrupt.data).toEqual({ question: 'proceed?' });
    expect(interrupt.contexts).toEqual(result.interrupts);
    const [point] = result.interrupts;
    expect(checkpointJson(store, 'cp').interrupts[point.id]).toMatchObject({ address: 'agent:custom', info: { question: 'proceed?' }, isRootCause: true });

    const resumed = await collect(runner.resume('cp', { targets: { [point.id]: 'yes' } }));
    expect(errorsOf(resumed)).toEqual([]);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['answer: yes']);
    // As in Eino, the interrupt's data comes back to the agent that gave it (as its state).
    expect(agent.resumed).toEqual([{ id: point.id, wasInterrupted: true, state: { question: 'proceed?' }, isResumeTarget: true, hasData: true, data: 'yes' }]);
  });
});

/** A custom agent that keeps sending events after its (adk-form) interrupt. */
class ChattyAfterInterrupt implements Agent {
  readonly name = 'chatty';
  readonly description = 'talks past its interrupt';

  async *run(_input: AgentInput, ctx?: RunContext): AsyncIterable<AgentEvent> {
    yield say('before');
    const signal = makeSignal(ctx!.address, { kind: 'input', message: 'your name?' });
    yield { agentName: this.name, runPath: [], action: { interrupted: interruptAction(signal) } };
    yield say('after the interrupt');
    yield { agentName: this.name, runPath: [], output: { custom: { type: 'late' } } };
  }
}

describe('the Runner ends the run at an interrupt', () => {
  it('drops the events an agent sends after its interrupt event', async () => {
    const run = new Runner({ agent: new ChattyAfterInterrupt(), checkpointStore: new InMemoryCheckpointStore(), tracing: false }).query('go', { checkpointId: 'cp' });
    const events = await collect(run);
    const result = await run.result;

    expect(events.map((e) => (e.action?.interrupted ? 'interrupt' : (e.output?.message?.message?.content ?? JSON.stringify(e.output?.custom))))).toEqual(['before', 'interrupt']);
    expect(result.status).toBe('interrupted');
    expect(result.messages.map((m) => m.content)).toEqual(['before']);
  });
});

describe('a Go-style interrupt inside a workflow', () => {
  it('stops the sequence at the custom agent, checkpoints, and resumes it, then the rest of the sequence runs', async () => {
    const { SequentialAgent } = await import('../../src/core/agents/workflow.js');
    const custom = new GoStyleAgent();
    const after: Agent = {
      name: 'after',
      description: 'runs after the custom agent',
      async *run() {
        yield say('after ran');
      },
    };
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent: new SequentialAgent({ name: 'seq', description: 'a then b', subAgents: [custom, after] }), checkpointStore: store, tracing: false });
    const run = runner.query('go', { checkpointId: 'cp' });
    const events = await collect(run);
    const result = await run.result;
    expect(errorsOf(events).map((e) => e.message)).toEqual([]);
    expect(result.status).toBe('interrupted');
    expect(result.interrupts).toHaveLength(1);
    expect(result.interrupts[0]).toMatchObject({ address: 'agent:seq;agent:custom', info: { question: 'proceed?' }, parent: { address: 'agent:seq' } });
    expect((await messagesOf(events)).map((m) => m.content)).toEqual(['about to ask']);

    const resumed = await collect(runner.resume('cp', { targets: { [result.interrupts[0]!.id]: 'yes' } }));
    expect(errorsOf(resumed)).toEqual([]);
    expect((await messagesOf(resumed)).map((m) => m.content)).toEqual(['answer: yes', 'after ran']);
  });

  // Issue 43 item 8: a porter writing Go's field name, `{ interrupted: { Data } }`, got an interrupt
  // with nothing in it and no error. It is an error naming the spelling adk reads.
  it("Go's capitalised { Data } is refused, naming 'data'; the run does not stop silently", async () => {
    const agent: Agent = {
      name: 'custom',
      description: 'asks in Go spelling',
      async *run() {
        yield { agentName: 'custom', runPath: [], action: { interrupted: { Data: { question: 'proceed?' } } } } as unknown as AgentEvent;
      },
    };
    const run = new Runner({ agent, tracing: false }).query('go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.status).not.toBe('interrupted');
    expect(errorsOf(events).map((e) => e.message).join('\n')).toMatch(/has 'Data' \(did you mean 'data'\?\): adk reads Eino's Go form as \{ interrupted: \{ data \} \}/);
  });
});
