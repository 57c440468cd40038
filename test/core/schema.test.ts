import { describe, expect, it } from 'vitest';
import { AsyncQueue } from '../../src/core/async-queue.js';
import { concatChunks } from '../../src/core/schema/concat.js';
import { MessageStream } from '../../src/core/schema/message-stream.js';
import { WillRetryError } from '../../src/core/errors.js';

describe('concatChunks', () => {
  it('joins text, reasoning and interleaved argument deltas of several tool calls', () => {
    const m = concatChunks([
      { role: 'assistant', reasoningContent: 'think ' },
      { reasoningContent: 'more', content: 'Checking ' },
      { content: 'both.' },
      { toolCalls: [{ index: 0, id: 'a', function: { name: 'read_file', arguments: '' } }] },
      { toolCalls: [{ index: 1, id: 'b', function: { name: 'list_dir', arguments: '{"pa' } }] },
      { toolCalls: [{ index: 0, function: { arguments: '{"path":' } }] },
      { toolCalls: [{ index: 1, function: { arguments: 'th":"."}' } }] },
      { toolCalls: [{ index: 0, function: { arguments: '"x.txt"}' } }] },
      { finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 } },
    ]);
    expect(m.content).toBe('Checking both.');
    expect(m.reasoningContent).toBe('think more');
    expect(m.toolCalls).toEqual([
      { id: 'a', index: 0, function: { name: 'read_file', arguments: '{"path":"x.txt"}' } },
      { id: 'b', index: 1, function: { name: 'list_dir', arguments: '{"path":"."}' } },
    ]);
    expect(m.usage?.totalTokens).toBe(15);
    expect(m.finishReason).toBe('tool_calls');
  });

  it('orders tool calls by index even when a later index starts first', () => {
    const m = concatChunks([
      { toolCalls: [{ index: 1, id: 'second', function: { name: 'b', arguments: '{}' } }] },
      { toolCalls: [{ index: 0, id: 'first', function: { name: 'a', arguments: '{}' } }] },
    ]);
    expect(m.toolCalls?.map((c) => c.id)).toEqual(['first', 'second']);
  });
});

describe('MessageStream', () => {
  it('lets several consumers read every chunk from the start', async () => {
    const s = new MessageStream();
    const read = async () => {
      let text = '';
      for await (const c of s) text += c.content ?? '';
      return text;
    };
    const early = read();
    s.push({ content: 'Hel' });
    s.push({ content: 'lo' });
    const late = read();
    s.close();
    expect(await Promise.all([early, late, read()])).toEqual(['Hello', 'Hello', 'Hello']);
    expect((await s.collect()).content).toBe('Hello');
  });

  it('fails every reader with the error it was closed with, keeping what arrived', async () => {
    const s = new MessageStream();
    s.push({ content: 'partial' });
    s.close(new WillRetryError(1, new Error('reset')));
    await expect(s.collect()).rejects.toBeInstanceOf(WillRetryError);
    expect(s.snapshot().content).toBe('partial');
  });
});

describe('AsyncQueue', () => {
  it('never blocks producers and delivers everything pushed before close', async () => {
    const q = new AsyncQueue<number>();
    for (let i = 0; i < 5000; i++) q.push(i);
    q.close();
    expect(q.push(1)).toBe(false);
    let n = 0;
    for await (const x of q) expect(x).toBe(n++);
    expect(n).toBe(5000);
  });

  it('wakes a waiting consumer', async () => {
    const q = new AsyncQueue<string>();
    const got: string[] = [];
    const done = (async () => {
      for await (const x of q) got.push(x);
    })();
    await new Promise((r) => setTimeout(r, 5));
    q.push('a');
    q.push('b');
    q.close();
    await done;
    expect(got).toEqual(['a', 'b']);
  });
});
