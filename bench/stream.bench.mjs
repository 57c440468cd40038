// W1: 20,000 chunks streamed through Runner + ChatModelAgent (scripted model), against a bare
// async-generator loop doing the same consumption, in the same process and run.
import { ChatModelAgent, Runner, ScriptedChatModel } from '../dist/core/index.js';
import { measure } from './harness.mjs';

const CHUNKS = 20_000;
const pieces = Array.from({ length: CHUNKS }, (_, i) => `w${i % 10}x `.slice(0, 4));

async function baseline() {
  async function* source() {
    for (const p of pieces) yield { content: p };
  }
  let n = 0;
  for await (const c of source()) n += c.content.length;
  return n;
}

async function adk() {
  const model = new ScriptedChatModel([{ chunks: pieces }]);
  const agent = new ChatModelAgent({ name: 'bench', description: 'bench', model });
  const runner = new Runner({ agent, enableStreaming: true });
  let n = 0;
  for await (const e of runner.query('go')) {
    const stream = e.output?.message?.stream;
    if (stream) for await (const c of stream) n += c.content?.length ?? 0;
  }
  if (n !== CHUNKS * 4) throw new Error(`adk consumed ${n} characters, expected ${CHUNKS * 4}`);
  return n;
}

export async function benchStream() {
  const base = await measure(baseline, { runs: 7 });
  const a = await measure(adk, { runs: 7 });
  const ns = (ms) => (ms * 1e6) / CHUNKS;
  return [
    { workload: 'W1 stream 20k chunks', impl: 'baseline', value: ns(base.median), min: ns(base.min), max: ns(base.max), unit: 'ns/chunk' },
    { workload: 'W1 stream 20k chunks', impl: 'adk', value: ns(a.median), min: ns(a.min), max: ns(a.max), unit: 'ns/chunk', ratio: a.median / base.median },
  ];
}
