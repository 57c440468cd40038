import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoopAgent, ParallelAgent, SequentialAgent } from '../../src/core/agents/workflow.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import { Runner } from '../../src/core/runner.js';
import { defineTool } from '../../src/core/tools/tool.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { chatAgent, collect, describeAll, roles, scriptedAgent } from './helpers.js';

const echo = defineTool({
  name: 'echo',
  description: 'echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo ${text}`,
});

const breaker = (name: string, breakAt: number, log: number[] = []) => {
  let runs = 0;
  return scriptedAgent(name, (emit) => {
    log.push(runs);
    if (runs++ === breakAt) emit({ agentName: '', runPath: [], action: { breakLoop: { from: name, done: false, currentIterations: 0 } } });
  });
};

describe('SequentialAgent', () => {
  it('runs children in order; outputKey feeds {Key} in the next instruction; run paths accumulate', async () => {
    const a1 = chatAgent('a1', [{ content: 'draft text' }], { outputKey: 'Draft' });
    const a2 = chatAgent('a2', [{ content: 'better text' }], { instruction: 'Improve this: {Draft}' });
    const a3 = chatAgent('a3', [{ content: 'done' }]);
    const seq = new SequentialAgent({ name: 'seq', description: 'pipeline', subAgents: [a1.agent, a2.agent, a3.agent] });
    expect(seq.type).toBe('Sequential');

    const events = await collect(new Runner({ agent: seq }).query('write'));
    expect(await describeAll(events)).toEqual([
      'a1 [seq>a1] assistant "draft text"',
      'a2 [seq>a1>a2] assistant "better text"',
      'a3 [seq>a1>a2>a3] assistant "done"',
    ]);
    expect(roles(a2.model.calls[0].messages)).toEqual([
      ['system', 'Improve this: draft text'],
      ['user', 'write'],
      ['user', 'For context: [a1] said: draft text.'],
    ]);
    expect(roles(a3.model.calls[0].messages)).toEqual([
      ['user', 'write'],
      ['user', 'For context: [a1] said: draft text.'],
      ['user', 'For context: [a2] said: better text.'],
    ]);
    // Children of a workflow get no transfer tool.
    expect(a1.model.calls[0].options?.tools).toBeUndefined();
  });

  it('exit stops the whole sequence; an error stops it too', async () => {
    const a1 = chatAgent('a1', [{ toolCalls: [{ name: 'exit', arguments: { final_result: 'enough' } }] }], { exit: true });
    const a2 = chatAgent('a2', [{ content: 'never' }]);
    const events = await collect(new Runner({ agent: new SequentialAgent({ name: 'seq', subAgents: [a1.agent, a2.agent] }) }).query('go'));
    expect(await describeAll(events)).toEqual(['a1 [seq>a1] assistant calls=exit', 'a1 [seq>a1] tool:exit "enough" -> exit']);
    expect(a2.model.calls).toHaveLength(0);

    const b1 = chatAgent('b1', [{ error: new Error('model down') }], { retry: { maxRetries: 0 } });
    const b2 = chatAgent('b2', [{ content: 'never' }]);
    const failed = await collect(new Runner({ agent: new SequentialAgent({ name: 'seq2', subAgents: [b1.agent, b2.agent] }) }).query('go'));
    expect(await describeAll(failed)).toEqual(['b1 [seq2>b1] error: model down']);
    expect(b2.model.calls).toHaveLength(0);
  });
});

describe('LoopAgent', () => {
  it('repeats its children until one exits; run paths keep every iteration', async () => {
    const w = chatAgent('w', [{ content: 'v1' }, { content: 'v2' }, { content: 'v3' }]);
    const c = chatAgent('c', [{ content: 'needs work' }, { toolCalls: [{ name: 'exit', arguments: { final_result: 'approved' } }] }], { exit: true });
    const loop = new LoopAgent({ name: 'loop', subAgents: [w.agent, c.agent], maxIterations: 5 });
    const events = await collect(new Runner({ agent: loop }).query('write'));
    expect(await describeAll(events)).toEqual([
      'w [loop>w] assistant "v1"',
      'c [loop>w>c] assistant "needs work"',
      'w [loop>w>c>w] assistant "v2"',
      'c [loop>w>c>w>c] assistant calls=exit',
      'c [loop>w>c>w>c] tool:exit "approved" -> exit',
    ]);
    expect(w.model.calls).toHaveLength(2);
    // The second writer call sees the first round, its own message verbatim.
    expect(roles(w.model.calls[1].messages)).toEqual([
      ['user', 'write'],
      ['assistant', 'v1'],
      ['user', 'For context: [c] said: needs work.'],
    ]);
  });

  it('a breakLoop action stops the loop and is marked done with its iteration', async () => {
    const log: number[] = [];
    const w = chatAgent('w', () => ({ content: 'tick' }));
    const loop = new LoopAgent({ name: 'loop', subAgents: [w.agent, breaker('b', 1, log)], maxIterations: 5 });
    const events = await collect(new Runner({ agent: loop }).query('go'));
    expect(await describeAll(events)).toEqual([
      'w [loop>w] assistant "tick"',
      'w [loop>w>b>w] assistant "tick"',
      'b [loop>w>b>w>b] -> break:b:done@1',
    ]);
    expect(events[2].action?.breakLoop).toEqual({ from: 'b', done: true, currentIterations: 1 });
    expect(log).toEqual([0, 1]);
  });

  it('a break inside an inner loop ends only that loop', async () => {
    const inner = new LoopAgent({ name: 'inner', subAgents: [breaker('b', 0)], maxIterations: 3 });
    const counter = chatAgent('after', () => ({ content: 'x' }));
    const outer = new LoopAgent({ name: 'outer', subAgents: [inner, counter.agent], maxIterations: 2 });
    const events = await collect(new Runner({ agent: outer }).query('go'));
    // The inner break is done by the time the outer loop sees it, so the outer loop keeps going.
    expect(counter.model.calls).toHaveLength(2);
    expect(events.filter((e) => e.action?.breakLoop)).toHaveLength(1);
  });

  it('maxIterations bounds the rounds; 0 means no bound', async () => {
    const w = chatAgent('w', () => ({ content: 'tick' }));
    await collect(new Runner({ agent: new LoopAgent({ name: 'three', subAgents: [w.agent], maxIterations: 3 }) }).query('go'));
    expect(w.model.calls).toHaveLength(3);

    const log: number[] = [];
    const unbounded = new LoopAgent({ name: 'unbounded', subAgents: [breaker('b', 40, log)], maxIterations: 0 });
    const events = await collect(new Runner({ agent: unbounded }).query('go'));
    expect(log).toHaveLength(41);
    expect(events[events.length - 1].action?.breakLoop).toMatchObject({ done: true, currentIterations: 40 });
  });
});

describe('ParallelAgent', () => {
  it('runs children concurrently, each in its own lane', async () => {
    const started: Record<string, number> = {};
    const slow = (name: string) =>
      chatAgent(name, [
        (_m, _o, call) => {
          started[`${name}${call}`] = Date.now();
          return { toolCalls: [{ name: 'echo', arguments: { text: name } }], delayMs: 300 };
        },
        { content: `${name} done` },
      ], { tools: [echo] });
    const a = slow('a');
    const b = slow('b');
    const par = new ParallelAgent({ name: 'par', subAgents: [a.agent, b.agent] });
    expect(par.type).toBe('Parallel');

    const t0 = Date.now();
    const events = await collect(new Runner({ agent: par }).query('go'));
    const elapsed = Date.now() - t0;
    // Sequentially this takes 600 ms; concurrently about 300 ms.
    expect(elapsed).toBeLessThan(550);
    expect(Math.abs(started.a0 - started.b0)).toBeLessThan(100);

    const lines = await describeAll(events);
    expect(lines.filter((l) => l.startsWith('a '))).toEqual(['a [par>a] assistant calls=echo', 'a [par>a] tool:echo "echo a"', 'a [par>a] assistant "a done"']);
    expect(lines.filter((l) => l.startsWith('b '))).toEqual(['b [par>b] assistant calls=echo', 'b [par>b] tool:echo "echo b"', 'b [par>b] assistant "b done"']);
    // Lanes are isolated: b's second call sees only the root input and its own messages.
    expect(b.model.calls[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(b.model.calls[1].messages.some((m) => m.content.includes('[a]'))).toBe(false);
  });

  it('merges the lanes into the shared history in time order afterwards', async () => {
    const a = chatAgent('a', [{ content: 'A', delayMs: 150 }]);
    const b = chatAgent('b', [{ content: 'B', delayMs: 10 }]);
    const after = chatAgent('after', [{ content: 'summary' }]);
    const seq = new SequentialAgent({ name: 'seq', subAgents: [new ParallelAgent({ name: 'par', subAgents: [a.agent, b.agent] }), after.agent] });
    const events = await collect(new Runner({ agent: seq }).query('go'));
    expect(await describeAll(events)).toEqual(['b [seq>par>b] assistant "B"', 'a [seq>par>a] assistant "A"', 'after [seq>par>after] assistant "summary"']);
    expect(roles(after.model.calls[0].messages)).toEqual([
      ['user', 'go'],
      ['user', 'For context: [b] said: B.'],
      ['user', 'For context: [a] said: A.'],
    ]);
  });

  it('one failing child does not stop the others', async () => {
    const a = chatAgent('a', [{ error: new Error('boom') }], { retry: { maxRetries: 0 } });
    const b = chatAgent('b', [{ content: 'fine', delayMs: 20 }]);
    const events: AgentEvent[] = await collect(new Runner({ agent: new ParallelAgent({ name: 'par', subAgents: [a.agent, b.agent] }) }).query('go'));
    expect((await describeAll(events)).sort()).toEqual(['a [par>a] error: boom', 'b [par>b] assistant "fine"']);
  });
});

describe('workflow interrupts (the wrapping done in step)', () => {
  const shell = defineTool({ name: 'shell', description: 'runs', parameters: z.object({ command: z.string() }), execute: ({ command }) => `ran ${command}` });
  const approving = (name: string) =>
    chatAgent(name, [{ toolCalls: [{ name: 'shell', arguments: { command: name }, id: `call_${name}` }] }, { content: `${name} done` }], {
      tools: [shell],
      approval: ['shell'],
    });

  it('Sequential wraps a child interrupt and resumes there without re-running earlier children', async () => {
    const a1 = chatAgent('a1', [{ content: 'first' }]);
    const a2 = approving('a2');
    const runner = new Runner({ agent: new SequentialAgent({ name: 'seq', subAgents: [a1.agent, a2.agent] }), checkpointStore: new InMemoryCheckpointStore() });
    const first = await collect(runner.query('go', { checkpointId: 'cp' }));
    const last = first[first.length - 1];
    expect(last.runPath).toEqual(['seq', 'a1', 'a2']);
    expect(last.action?.interrupted?.contexts.map((c) => [c.address, c.parent?.address])).toEqual([['agent:seq;agent:a2;tool:shell:call_a2', 'agent:seq;agent:a2']]);
    expect(last.action?.interrupted?.signal).toMatchObject({ address: 'agent:seq', info: { message: 'Sequential workflow interrupted' }, state: { interruptIndex: 1 } });
    const rest = await collect(runner.resume('cp', { targets: { [last.action!.interrupted!.contexts[0].id]: { approved: true } } }));
    expect(await describeAll(rest)).toEqual(['a2 [seq>a1>a2] tool:shell "ran a2"', 'a2 [seq>a1>a2] assistant "a2 done"']);
    expect(a1.model.calls).toHaveLength(1);
  });

  it('Parallel collects interrupts, saves lanes, and resumes only the interrupted child', async () => {
    const a = approving('a');
    const b = chatAgent('b', [{ content: 'b done', delayMs: 30 }]);
    const after = chatAgent('after', [{ content: 'merged' }]);
    const seq = new SequentialAgent({ name: 'seq', subAgents: [new ParallelAgent({ name: 'par', subAgents: [a.agent, b.agent] }), after.agent] });
    const runner = new Runner({ agent: seq, checkpointStore: new InMemoryCheckpointStore() });
    const first = await collect(runner.query('go', { checkpointId: 'cp' }));
    const last = first[first.length - 1];
    expect(last.agentName).toBe('par');
    expect(last.action?.interrupted?.contexts.map((c) => c.address)).toEqual(['agent:seq;agent:par;agent:a;tool:shell:call_a']);
    const rest = await collect(runner.resume('cp', { targets: { [last.action!.interrupted!.contexts[0].id]: { approved: true } } }));
    expect(await describeAll(rest)).toEqual(['a [seq>par>a] tool:shell "ran a"', 'a [seq>par>a] assistant "a done"', 'after [seq>par>after] assistant "merged"']);
    expect(b.model.calls).toHaveLength(1);
    expect(after.model.calls[0].messages.map((m) => m.content)).toEqual([
      'go',
      'For context: [a] called tool: `shell` with arguments: {"command":"a"}.',
      'For context: [b] said: b done.',
      'For context: [a] `shell` tool returned result: ran a.',
      'For context: [a] said: a done.',
    ]);
  });
});
