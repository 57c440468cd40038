// adk doing each workload: Runner + ChatModelAgent with ScriptedChatModel (zero latency), streaming on.
import { pathToFileURL } from 'node:url';
import { Script, pieces, textReply, toolReply } from '../fakes/script.mjs';

// ADK_BENCH_DIST points at another build (a copy from before an optimisation) for before/after figures.
const other = process.env.ADK_BENCH_DIST;
const dist = other ? pathToFileURL(`${other}/core/index.js`).href : '../../dist/core/index.js';
const { ChatModelAgent, ParallelAgent, Runner, ScriptedChatModel, setSubAgents } = await import(dist);

export const name = 'adk';

/** The fake script as ScriptedChatModel replies. */
const scripted = (script, name = 'scripted') =>
  new ScriptedChatModel(() => {
    const r = script.take();
    const reply = { chunks: r.chunks ?? [], delayMs: r.delayMs };
    if (r.toolCall) reply.toolCalls = [{ name: r.toolCall.name, arguments: r.toolCall.args, id: r.toolCall.id }];
    return reply;
  }, name);

/** Reads every event and stream of a run; returns the text characters received. */
async function consume(runner, expectErrors = false) {
  let n = 0;
  for await (const e of runner.query('go')) {
    if (e.error && !expectErrors) throw e.error;
    const v = e.output?.message;
    if (v?.stream && v.role === 'assistant') for await (const c of v.stream) n += c.content?.length ?? 0;
  }
  return n;
}

export function stream(chunks) {
  const script = new Script(() => textReply(pieces(chunks)));
  return async () => {
    // A fresh model per run: ScriptedChatModel records every call it gets.
    script.reset();
    const agent = new ChatModelAgent({ name: 'bench', description: 'bench', model: scripted(script) });
    return consume(new Runner({ agent, enableStreaming: true }));
  };
}

const noop = { name: 'noop', description: 'does nothing', parameters: { type: 'object', properties: {} }, execute: async () => 'ok' };

export function toolLoop(turns) {
  const script = new Script((call) => (call < turns ? toolReply('noop') : textReply(['done'])));
  return async () => {
    script.reset();
    const agent = new ChatModelAgent({ name: 'bench', description: 'bench', model: scripted(script), tools: [noop], maxIterations: turns + 5 });
    const n = await consume(new Runner({ agent, enableStreaming: true }));
    if (script.call !== turns + 1) throw new Error(`adk made ${script.call} model calls, expected ${turns + 1}`);
    return n;
  };
}

export function transfer(chunks) {
  const a = new ChatModelAgent({ name: 'A', description: 'a', model: scripted(new Script(() => toolReply('transfer_to_agent', { agent_name: 'B' }))) });
  const bModel = new Script(() => textReply(pieces(chunks)));
  const b = new ChatModelAgent({ name: 'B', description: 'b', model: scripted(bModel) });
  const runner = new Runner({ agent: setSubAgents(a, [b]), enableStreaming: true });
  return () => consume(runner);
}

export function parallel(children, delayMs) {
  const agents = Array.from(
    { length: children },
    (_, i) => new ChatModelAgent({ name: `c${i}`, description: 'child', model: scripted(new Script(() => ({ chunks: ['done'], delayMs }))) }),
  );
  const runner = new Runner({ agent: new ParallelAgent({ name: 'fan', subAgents: agents }), enableStreaming: true });
  return async () => {
    const n = await consume(runner);
    if (n !== children * 4) throw new Error(`adk parallel produced ${n} characters, expected ${children * 4}`);
    return n;
  };
}

/** A model that never records its calls, so a long session measures adk, not the fake. */
class LoopModel {
  modelName = 'bench-loop';
  constructor(turns) {
    this.turns = turns;
    this.call = 0;
  }
  async generate() {
    throw new Error('streaming only');
  }
  async *stream() {
    const c = this.call++;
    if (c < this.turns) {
      yield { toolCalls: [{ index: 0, id: `call_${c}`, function: { name: 'noop', arguments: '{}' } }] };
      yield { finishReason: 'tool_calls' };
    } else {
      yield { role: 'assistant', content: 'done' };
      yield { finishReason: 'stop' };
    }
  }
}

/** One run that produces `events` events (a streamed tool call and a tool result per turn); returns the count. */
export function session(events) {
  const turns = Math.ceil(events / 2);
  return async () => {
    const agent = new ChatModelAgent({ name: 'bench', description: 'bench', model: new LoopModel(turns), tools: [noop], maxIterations: turns + 5 });
    let n = 0;
    for await (const e of new Runner({ agent, enableStreaming: true }).query('go')) {
      if (e.error) throw e.error;
      n++;
      const s = e.output?.message?.stream;
      if (s) for await (const _ of s);
    }
    return n;
  };
}
