import { describe, expect, it } from 'vitest';
import { OpenAIStreamDecoder } from '../../src/core/models/openai-stream.js';
import { concatChunks } from '../../src/core/schema/concat.js';
import type { MessageChunk } from '../../src/core/schema/message.js';

/** Streams `text` as content cut at the given positions, through a decoder offering read_file. */
function decode(text: string, cuts: number[]): ReturnType<typeof concatChunks> {
  const decoder = new OpenAIStreamDecoder({ toolNames: ['read_file'] });
  const chunks: MessageChunk[] = [];
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    const piece = text.slice(at, cut);
    at = cut;
    const c = decoder.decode({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    if (c) chunks.push(c);
  }
  const end = decoder.decode({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (end) chunks.push(end);
  return concatChunks(chunks);
}

const CASES: Array<[string, { content: string; reasoning?: string; calls?: string[] }]> = [
  ['<think>weigh a < b</think>\n\nThe answer is 42.', { content: 'The answer is 42.', reasoning: 'weigh a < b' }],
  ['  <think></think>Hi', { content: 'Hi', reasoning: undefined }],
  ['a < b and <tool or <t', { content: 'a < b and <tool or <t' }],
  ['Sure.<tool_call>{"name":"read_file","arguments":{"path":"x"}}</tool_call>', { content: 'Sure.', calls: ['read_file {"path":"x"}'] }],
  ['<think>hm</think><tool_call>{"name":"read_file","arguments":{"path":"y"}}</tool_call>', { content: '', reasoning: 'hm', calls: ['read_file {"path":"y"}'] }],
  ['<tool_call>{"name":"nope","arguments":{}}</tool_call>', { content: '<tool_call>{"name":"nope","arguments":{}}</tool_call>' }],
  ['I think <think> tags are odd', { content: 'I think <think> tags are odd' }],
];

describe('tags split at every position', () => {
  for (const [text, want] of CASES) {
    it(JSON.stringify(text), () => {
      // Every single cut and every pair of cuts: nothing lost, duplicated or misplaced.
      const cutSets: number[][] = [[]];
      for (let i = 1; i < text.length; i++) {
        cutSets.push([i]);
        for (let j = i + 1; j < text.length; j += 3) cutSets.push([i, j]);
      }
      for (const cuts of cutSets) {
        const m = decode(text, cuts);
        expect(m.content, `cuts ${cuts}`).toBe(want.content);
        expect(m.reasoningContent, `cuts ${cuts}`).toBe(want.reasoning);
        expect(m.toolCalls?.map((c) => `${c.function.name} ${c.function.arguments}`), `cuts ${cuts}`).toEqual(want.calls);
      }
    });
  }
});

describe('tool names', () => {
  const callsOf = (deltas: Array<Record<string, unknown>>, tools: string[]) => {
    const d = new OpenAIStreamDecoder({ toolNames: tools });
    const chunks = deltas.map((t) => d.decode({ choices: [{ index: 0, delta: { tool_calls: [t] }, finish_reason: null }] })!).filter(Boolean);
    return concatChunks(chunks).toolCalls!.map((c) => c.function.name);
  };
  it('a name sent in fragments is joined, even when a fragment is itself a tool name', () => {
    expect(callsOf([{ index: 0, id: 'a', function: { name: 'read' } }, { index: 0, function: { name: '_file' } }, { index: 0, function: { arguments: '{}' } }], ['read', 'read_file'])).toEqual(['read_file']);
    expect(callsOf([{ index: 0, id: 'a', function: { name: 'rea' } }, { index: 0, function: { name: 'd_file', arguments: '{}' } }], ['read_file'])).toEqual(['read_file']);
  });
  it('a complete name repeated in every delta stays one name', () => {
    expect(callsOf([{ index: 0, id: 'a', function: { name: 'read' } }, { index: 0, function: { name: 'read', arguments: '{}' } }], ['read', 'read_file'])).toEqual(['read']);
  });
});
