import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel, type Tool } from '../../src/core/index.js';

const add: Tool<{ a: number; b: number }> = { name: 'add', description: 'Adds.', parameters: z.object({ a: z.number(), b: z.number() }), execute: ({ a, b }) => String(a + b) };
const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

describe('RunResult (issue 16)', () => {
  it('await run.result gives the answer, usage, messages, last agent and status without touching events', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }], usage: usage(10, 2) }, { content: 'It is 5.', usage: usage(20, 4) }]);
    const agent = new ChatModelAgent({ name: 'calc', description: 'Adds.', model, tools: [add] });
    const r = await new Runner({ agent, enableStreaming: true }).query('2+3?').result;
    expect(r).toMatchObject({ status: 'completed', finalOutput: 'It is 5.', lastAgent: 'calc', usage: { promptTokens: 30, completionTokens: 6 }, interrupts: [] });
    expect(r.messages.map((m) => [m.role, m.content])).toEqual([['assistant', ''], ['tool', '5'], ['assistant', 'It is 5.']]);
    expect(r.checkpointId).toBeUndefined();
  });

  it('iterating and awaiting the result together: every event, then the outcome', async () => {
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ content: 'hello there' }]) });
    const run = new Runner({ agent, enableStreaming: true }).query('hi');
    let deltas = '';
    for await (const e of run) if (e.output?.message?.stream) for await (const c of e.output.message.stream) deltas += c.content ?? '';
    expect(deltas).toBe('hello there');
    expect((await run.result).finalOutput).toBe('hello there');
  });

  it('an interrupted run says so, with its interrupts and checkpoint; resume returns the final result', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, { content: 'Two.' }]);
    const agent = new ChatModelAgent({ name: 'calc', description: 'Adds.', model, tools: [add], approval: ['add'] });
    const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() });
    const first = await runner.run([{ role: 'user', content: '1+1' }], { checkpointId: 'cp1' }).result;
    expect(first).toMatchObject({ status: 'interrupted', checkpointId: 'cp1' });
    expect(first.interrupts.map((i) => (i.info as { kind: string }).kind)).toEqual(['approval']);
    const second = await runner.resume('cp1', { targets: { [first.interrupts[0].id]: { approved: true } } }).result;
    expect(second).toMatchObject({ status: 'completed', finalOutput: 'Two.' });
  });

  it('errors and cancels are statuses, not throws', async () => {
    const failing = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ error: Object.assign(new Error('bad request'), { status: 400 }) }]), retry: { maxRetries: 0 } });
    const r = await new Runner({ agent: failing }).query('x').result;
    expect(r.status).toBe('error');
    expect(r.error?.message).toContain('bad request');
    const controller = new AbortController();
    const slow = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ content: 'late', delayMs: 5000 }]) });
    const pending = new Runner({ agent: slow }).query('x', { signal: controller.signal }).result;
    setTimeout(() => controller.abort(), 20);
    expect((await pending).status).toBe('cancelled');
  });

  it('iterating after the result was awaited is refused with a clear message', async () => {
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ content: 'x' }]) });
    const run = new Runner({ agent }).query('hi');
    await run.result;
    expect(() => run[Symbol.asyncIterator]()).toThrow('iterate it before awaiting result');
  });
});
