import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ChatModelAgent,
  Runner,
  ScriptedChatModel,
  defineTool,
  getSessionValue,
  sessionKey,
  setSessionValue,
  type Agent,
  type AgentEvent,
  type AgentMiddleware,
  type RunContext,
} from '../../src/core/index.js';
import { z } from 'zod';

// Typed session values (Eino's GetSessionValue / AddSessionValue): a key object carries the type.
const City = sessionKey<string>('city');
const Visits = sessionKey<number>('visits');

describe('typed session values', () => {
  it('tools, middlewares and custom agents read and write them through a typed key', async () => {
    const seen: Array<[string, unknown]> = [];
    const visit = defineTool({
      name: 'visit',
      description: 'visits the city',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        const city = getSessionValue(ctx, City);
        expectTypeOf(city).toEqualTypeOf<string | undefined>();
        setSessionValue(ctx, Visits, (getSessionValue(ctx, Visits) ?? 0) + 1);
        // @ts-expect-error a number key takes numbers only
        if (false as boolean) setSessionValue(ctx, Visits, 'many');
        seen.push(['tool', city]);
        return `visited ${city}`;
      },
    });
    const watch: AgentMiddleware = {
      name: 'watch',
      beforeModel(ctx) {
        seen.push(['middleware', getSessionValue(ctx, City)]);
      },
    };
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'visit', arguments: {}, id: 'c1' }] }, { content: 'done' }]);
    const traveller = new ChatModelAgent({ name: 'traveller', description: 'd', instruction: 'You are in {city}.', model, tools: [visit], middlewares: [watch] });
    const reporter: Agent = {
      name: 'reporter',
      description: 'reports the visits',
      async *run(_input, ctx?: RunContext): AsyncIterable<AgentEvent> {
        const visits = getSessionValue(ctx!, Visits);
        expectTypeOf(visits).toEqualTypeOf<number | undefined>();
        seen.push(['agent', visits]);
        yield { agentName: '', runPath: [], output: { custom: { visits } } };
      },
    };
    const { SequentialAgent } = await import('../../src/core/index.js');
    const team = new SequentialAgent({ name: 'trip', subAgents: [traveller, reporter] });
    const values = { [City.name]: 'Paris' };
    const result = await new Runner({ agent: team, tracing: false }).query('go', { sessionValues: values }).result;

    expect(result.status).toBe('completed');
    expect(model.calls[0]!.messages[0]!.content).toBe('You are in Paris.');
    expect(seen).toEqual([
      ['middleware', 'Paris'],
      ['tool', 'Paris'],
      ['middleware', 'Paris'],
      ['agent', 1],
    ]);
  });

  it('an untyped name reads unknown; a key is just its name', () => {
    expect(City.name).toBe('city');
    const ctx = { sessionValues: { city: 'Lyon' } };
    expectTypeOf(getSessionValue(ctx, 'city')).toEqualTypeOf<unknown>();
    expect(getSessionValue(ctx, 'city')).toBe('Lyon');
    expect(getSessionValue(ctx, Visits)).toBeUndefined();
  });
});
