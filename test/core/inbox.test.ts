import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, Runner, ScriptedChatModel, SequentialAgent, type RunInbox, type Tool } from '../../src/core/index.js';

// Issue 15: a message the person sends while the run works joins it at the next safe point (after
// the current tool calls), as Eino's TurnLoop Push does; a turn with no tool calls leaves it queued.
const look: Tool<{ path: string }> = { name: 'look', description: 'Looks.', parameters: z.object({ path: z.string() }), execute: ({ path }) => `saw ${path}` };

function inbox(items: string[]): RunInbox & { items: string[] } {
  return { items, take: () => items.splice(0) };
}

describe('pushing a message into a running turn', () => {
  it('is added after the tool results, before the next model call, and kept in the run history', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'look', arguments: { path: 'a' } }] }, { content: 'done, and README too' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model, tools: [look] });
    const box = inbox([]);
    const run = new Runner({ agent }).run([{ role: 'user', content: 'look at a' }], { inbox: box });
    const seen: Array<[string, string]> = [];
    for await (const e of run) {
      const m = e.output?.message;
      if (m?.message) seen.push([m.role, m.message.content]);
      if (m?.role === 'assistant') box.items.push('also check README');
    }
    expect(model.calls[1]!.messages.slice(-3).map((m) => [m.role, m.content])).toEqual([
      ['assistant', ''],
      ['tool', 'saw a'],
      ['user', 'also check README'],
    ]);
    expect(seen).toContainEqual(['user', 'also check README']);
    const r = await run.result;
    expect(r.finalOutput).toBe('done, and README too');
    expect(r.messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'user', 'assistant']);
  });

  it('an answer with no tool calls takes nothing: the message waits for the next turn', async () => {
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model: new ScriptedChatModel([{ content: 'hi' }]) });
    const box = inbox(['later']);
    await new Runner({ agent }).run([{ role: 'user', content: 'hello' }], { inbox: box }).result;
    expect(box.items).toEqual(['later']);
  });

  it('the next agent of a sequence sees the pushed message as the person\'s, not "For context"', async () => {
    const first = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'look', arguments: { path: 'a' } }] }, { content: 'drafted' }]);
    const second = new ScriptedChatModel([{ content: 'checked' }]);
    const seq = new SequentialAgent({
      name: 'seq',
      subAgents: [new ChatModelAgent({ name: 'drafter', description: 'd', model: first, tools: [look] }), new ChatModelAgent({ name: 'checker', description: 'c', model: second })],
    });
    const box = inbox(['keep it short']);
    await new Runner({ agent: seq }).run([{ role: 'user', content: 'go' }], { inbox: box }).result;
    const users = second.calls[0]!.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toContain('keep it short');
  });
});

describe('a pushed message in a saved conversation', () => {
  it('is saved in its place and the next turn sends it as the person\'s', async () => {
    const { Conversation, openAdkStores } = await import('../../src/core/entries/conversation.js');
    const stores = await openAdkStores('memory://');
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'look', arguments: { path: 'a' } }] }, { content: 'ok, short' }, { content: 'again' }]);
    const conv = await Conversation.start({ agent: new ChatModelAgent({ name: 'a', description: 'a', model, tools: [look] }), stores });
    await conv.send('look at a', { inbox: inbox(['keep it short']) }).result;
    expect(conv.history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'look at a'],
      ['assistant', ''],
      ['tool', 'saw a'],
      ['user', 'keep it short'],
      ['assistant', 'ok, short'],
    ]);
    await conv.send('more').result;
    expect(model.calls[2]!.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['look at a', 'keep it short', 'more']);
    await stores.close();
  });
});
