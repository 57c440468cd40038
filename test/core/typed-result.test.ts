import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel, type RunResult } from '../../src/core/index.js';

// Type-level: `npx tsc -p tsconfig.test.json --noEmit` checks this file. `structured` takes the type
// of the agent's zod outputSchema; a field the schema does not have does not type-check.

const Forecast = z.object({ city: z.string(), celsius: z.number().int() });
const answer = JSON.stringify({ city: 'Paris', celsius: 21 });

describe("RunResult<T>: `structured` typed from the agent's outputSchema", () => {
  it('a zod schema types result.structured (run, query and resume alike)', async () => {
    const model = new ScriptedChatModel([{ content: answer }, { content: answer }]);
    const forecaster = new ChatModelAgent({ name: 'forecaster', description: 'Forecasts.', model, outputSchema: Forecast });
    const runner = new Runner({ agent: forecaster, tracing: false });

    const r = await runner.run([{ role: 'user', content: 'Weather in Paris?' }]).result;
    expectTypeOf(r).toEqualTypeOf<RunResult<{ city: string; celsius: number }>>();
    expectTypeOf(r.structured).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    const celsius: number | undefined = r.structured?.celsius;
    // @ts-expect-error `fahrenheit` is not a field of the schema
    const wrong = r.structured?.fahrenheit;
    expect(wrong).toBeUndefined();
    expect(celsius).toBe(21);
    if (r.structured) expect(r.structured.city).toBe('Paris');

    const q = await runner.query('Again?').result;
    expectTypeOf(q.structured).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    expectTypeOf(runner.resume('cp').result).resolves.toEqualTypeOf<RunResult<{ city: string; celsius: number }>>();
  });

  it('a JSON Schema gives unknown, unless the agent is given the type', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const untyped = new ChatModelAgent({ name: 'a', description: 'd', model: new ScriptedChatModel([{ content: '{"city":"Oslo"}' }]), outputSchema: schema });
    const u = await new Runner({ agent: untyped, tracing: false }).query('q').result;
    expectTypeOf(u.structured).toEqualTypeOf<unknown>();
    expect(u.structured).toEqual({ city: 'Oslo' });

    const typed = new ChatModelAgent<{ city: string }>({ name: 'b', description: 'd', model: new ScriptedChatModel([{ content: '{"city":"Oslo"}' }]), outputSchema: schema });
    const t = await new Runner({ agent: typed, tracing: false, checkpointStore: new InMemoryCheckpointStore() }).query('q').result;
    expectTypeOf(t.structured).toEqualTypeOf<{ city: string } | undefined>();
    expect(t.structured?.city).toBe('Oslo');
  });

  it('an agent without a schema gives unknown', async () => {
    const plain = new ChatModelAgent({ name: 'p', description: 'd', model: new ScriptedChatModel([{ content: 'hi' }]) });
    const r = await new Runner({ agent: plain, tracing: false }).query('q').result;
    expectTypeOf(r.structured).toEqualTypeOf<unknown>();
    expect(r.structured).toBeUndefined();
  });
});
