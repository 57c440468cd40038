import { describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel } from '../../src/core/index.js';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { openAdkStores } from '../../src/core/store/adk-stores.js';

// Issue 43, item 5: two `send` calls at once lost an answer from the saved history
// (`user:one | user:two | assistant:<second>`), with no error. A Conversation runs one turn at a
// time: a second send waits for the first to end, then runs with it in its history.
describe('one Conversation, one turn at a time', () => {
  it('two sends at once: both answered, saved in order, the second sees the first', async () => {
    const model = new ScriptedChatModel([
      { content: 'answer one', delayMs: 50 },
      (messages) => ({ content: `answer two (after ${messages.filter((m) => m.role === 'assistant').length} answer)` }),
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model });
    const stores = await openAdkStores('memory://');
    const conv = await Conversation.start({ agent, stores });
    const [one, two] = await Promise.all([conv.send('one').result, conv.send('two').result]);
    expect([one.finalOutput, two.finalOutput]).toEqual(['answer one', 'answer two (after 1 answer)']);
    const saved = await stores.sessions.get(conv.id);
    expect(saved!.messages.map((m) => `${m.role}:${m.content}`)).toEqual(['user:one', 'assistant:answer one', 'user:two', 'assistant:answer two (after 1 answer)']);
  });

  it('a send that is never read does not hold up the next one', async () => {
    const model = new ScriptedChatModel([{ content: 'first' }, { content: 'second' }]);
    const conv = await Conversation.start({ agent: new ChatModelAgent({ name: 'a', description: 'd', model }), stores: await openAdkStores('memory://') });
    void conv.send('ignored');
    expect((await conv.send("read").result).finalOutput).toBe('first');
  });
});
