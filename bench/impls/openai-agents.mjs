// @openai/agents doing each workload: Agent + Runner (streamed), a fake Model, tracing off (no network).
process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
const { Agent, Runner, handoff, tool, setTracingDisabled } = await import('@openai/agents');
const { z } = await import('zod');
const { FakeAgentsModel } = await import('../fakes/openai-agents-model.mjs');
const { Script, pieces, textReply, toolReply } = await import('../fakes/script.mjs');

setTracingDisabled(true);
const runner = new Runner({ tracingDisabled: true });

export const name = '@openai/agents';

/** Streams a run and returns the number of text characters received. */
async function consume(agent, maxTurns = 10) {
  const result = await runner.run(agent, 'go', { stream: true, maxTurns });
  let n = 0;
  for await (const e of result) {
    if (e.type === 'raw_model_stream_event' && e.data.type === 'output_text_delta') n += e.data.delta.length;
  }
  await result.completed;
  if (result.error) throw result.error;
  return { chars: n, result };
}

export function stream(chunks) {
  const script = new Script(() => textReply(pieces(chunks)));
  const agent = new Agent({ name: 'bench', instructions: 'bench', model: new FakeAgentsModel(script) });
  return async () => {
    script.reset();
    return (await consume(agent)).chars;
  };
}

export function toolLoop(turns) {
  const script = new Script((call) => (call < turns ? toolReply('noop') : textReply(['done'])));
  const noop = tool({ name: 'noop', description: 'does nothing', parameters: z.object({}), execute: async () => 'ok' });
  const agent = new Agent({ name: 'bench', instructions: 'bench', model: new FakeAgentsModel(script), tools: [noop] });
  return async () => {
    script.reset();
    const { chars } = await consume(agent, turns + 5);
    if (script.call !== turns + 1) throw new Error(`@openai/agents made ${script.call} model calls, expected ${turns + 1}`);
    return chars;
  };
}

export function transfer(chunks) {
  const b = new Agent({ name: 'B', instructions: 'b', model: new FakeAgentsModel(new Script(() => textReply(pieces(chunks)))) });
  const toB = handoff(b);
  const a = new Agent({ name: 'A', instructions: 'a', model: new FakeAgentsModel(new Script(() => toolReply(toB.toolName))), handoffs: [toB] });
  return async () => (await consume(a)).chars;
}

export const parallelUnsupported =
  'no parallel-agent primitive: an Agent runs one agent at a time (handoffs switch agents, agents-as-tools run inside one turn)';
