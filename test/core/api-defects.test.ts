import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  ChatModelAgent,
  ParallelAgent,
  Runner,
  ScriptedChatModel,
  SequentialAgent,
  type Agent,
  type AgentEvent,
} from '../../src/core/index.js';

// Issue 16, item 6: defects a library user hits.
async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** A custom agent whose run throws before it yields anything. */
const thrower = (name: string): Agent => ({
  name,
  description: 'throws',
  run: () => ({
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error(`${name} broke`)) }),
  }),
});

const talker = (name: string) => new ChatModelAgent({ name, description: name, model: new ScriptedChatModel([{ content: `${name} here`, delayMs: 20 }]) });

describe('library defects (issue 16)', () => {
  it('keeps the reason given to abort()', async () => {
    const controller = new AbortController();
    const model = new ScriptedChatModel([{ content: 'slow', delayMs: 5000 }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model });
    const events = collect(new Runner({ agent }).query('hi', { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('the user closed the tab')), 20);
    const error = (await events).find((e) => e.error)?.error;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error!.message).toBe('run cancelled: the user closed the tab');
    expect((error as CancelledError).reason).toEqual(new Error('the user closed the tab'));
  });

  it('a plain abort() still says just "run cancelled"', async () => {
    const controller = new AbortController();
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ content: 'slow', delayMs: 5000 }]) });
    const events = collect(new Runner({ agent }).query('hi', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect((await events).find((e) => e.error)?.error?.message).toBe('run cancelled');
  });

  it('a throwing custom agent is reported at its own run path, in a sequence and in a parallel', async () => {
    const seq = new SequentialAgent({ name: 'seq', subAgents: [thrower('custom')] });
    const seqErrors = (await collect(new Runner({ agent: seq }).query('go'))).filter((e) => e.error);
    expect(seqErrors.map((e) => [e.agentName, e.runPath, e.error!.message])).toEqual([['custom', ['seq', 'custom'], 'custom broke']]);

    const par = new ParallelAgent({ name: 'par', subAgents: [talker('ok'), thrower('bad')] });
    const events = await collect(new Runner({ agent: par }).query('go'));
    const errors = events.filter((e) => e.error);
    expect(errors.map((e) => [e.agentName, e.runPath])).toEqual([['bad', ['par', 'bad']]]);
    expect(events.some((e) => e.runPath.join('/') === 'par/ok' && e.output?.message)).toBe(true);
  });

  it('refuses an empty workflow and an agent without a name', () => {
    // Issue 29: ConfigErrors naming the option.
    expect(() => new SequentialAgent({ name: 'empty', subAgents: [] })).toThrow("SequentialAgent 'empty': option 'subAgents' is required: a list of at least one agent");
    expect(() => new ParallelAgent({ name: '', subAgents: [talker('x')] })).toThrow("ParallelAgent: option 'name' must not be empty");
    expect(() => new ChatModelAgent({ name: '', description: '', model: new ScriptedChatModel([]) })).toThrow("ChatModelAgent: option 'name' must not be empty");
  });
});

describe('optional store drivers (issue 16)', () => {
  it('a missing driver names the package to install', async () => {
    const { importDriver } = await import('../../src/core/store/optional-driver.js');
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package '@keyv/redis'"), { code: 'ERR_MODULE_NOT_FOUND' }));
    await expect(importDriver(missing, '@keyv/redis', 'redis://', 'redis://127.0.0.1:6379')).rejects.toThrow(
      'redis:// stores need the @keyv/redis package, which is not installed: run npm install @keyv/redis',
    );
    await expect(importDriver(() => Promise.reject(new Error('boom')), '@keyv/redis', 'redis://', 'x')).rejects.toThrow('boom');
    expect(await importDriver(async () => 42, '@keyv/redis', 'redis://', 'x')).toBe(42);
  });
});

describe('timeouts are not retried without end (issue 15)', () => {
  it('a stream that goes silent is tried once more, a request that timed out is not retried', async () => {
    const { ChatModelAgent, Runner, ScriptedChatModel, ModelTimeoutError } = await import('../../src/core/index.js');
    const idle = new ScriptedChatModel([{ error: new ModelTimeoutError(50, 'idle') }, { error: new ModelTimeoutError(50, 'idle') }, { error: new ModelTimeoutError(50, 'idle') }]);
    const r1 = await new Runner({ agent: new ChatModelAgent({ name: 'a', description: 'a', model: idle, retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 } }) }).query('x').result;
    expect(r1.status).toBe('error');
    expect(idle.calls).toHaveLength(2);
    const whole = new ScriptedChatModel([{ error: new ModelTimeoutError(50, 'request') }, { content: 'never' }]);
    const r2 = await new Runner({ agent: new ChatModelAgent({ name: 'a', description: 'a', model: whole, retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 } }) }).query('x').result;
    expect(r2.status).toBe('error');
    expect(whole.calls).toHaveLength(1);
  });
});
