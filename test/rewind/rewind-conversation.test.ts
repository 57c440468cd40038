import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel, type Message } from '../../src/core/index.js';
import { Conversation, openAdkStores, type AdkStores } from '../../src/core/entries/conversation.js';
import { forkSession, rewindConversation } from '../../src/core/conversation/rewind.js';
import { lockSession, newSessionId } from '../../src/core/store/index.js';

// Issue 32: `/rewind` (conversation only) cuts the session's log back to before a message, and
// `/fork` copies a session's history into a new, independent one.
const dirs: string[] = [];
const open: AdkStores[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function stores(): Promise<{ stores: AdkStores; dir: string }> {
  const d = mkdtempSync(join(tmpdir(), 'adk-rewind-'));
  dirs.push(d);
  const s = await openAdkStores(`sqlite://${join(d, 'adk.db')}`);
  open.push(s);
  return { stores: s, dir: d };
}
const users = (messages: readonly Message[]) => messages.filter((m) => m.role === 'user').map((m) => m.content);

describe('rewind and fork of a conversation (issue 32)', () => {
  it('rewinding to before a message drops it and everything after, in the store too; the next request does not carry them', async () => {
    const model = new ScriptedChatModel([{ content: 'one' }, { content: 'two' }, { content: 'three' }, { content: 'again' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model });
    const { stores: s } = await stores();
    const conv = await Conversation.start({ agent, stores: s });
    for (const q of ['first', 'second', 'third']) await conv.send(q).result;
    expect(conv.record.messageCount).toBe(6);
    await rewindConversation(conv, 2); // before "second"
    expect(conv.history.map((m) => m.content)).toEqual(['first', 'one']);
    const stored = await s.sessions.get(conv.id);
    expect(stored!.messages.map((m) => m.content)).toEqual(['first', 'one']);
    expect(stored!.messageCount).toBe(2);
    // The dropped records are gone from the store, not only uncounted.
    expect(await s.kv.list(`sessionlog:${conv.id}:`)).toHaveLength(2);
    await conv.send('second again').result;
    expect(users(model.calls[3]!.messages)).toEqual(['first', 'second again']);
    expect(model.calls[3]!.messages.map((m) => m.content).join(' ')).not.toMatch(/two|three|third/);
    const reloaded = await s.sessions.get(conv.id);
    expect(reloaded!.messages.map((m) => m.content)).toEqual(['first', 'one', 'second again', 'again']);
    await conv.close();
  });

  it('a rewind past a /clear drops the context start; past a stopped turn drops its checkpoint', async () => {
    const model = new ScriptedChatModel([{ content: 'one' }, { content: 'two' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model });
    const { stores: s } = await stores();
    const conv = await Conversation.start({ agent, stores: s });
    await conv.send('first').result;
    await conv.clearContext();
    await conv.send('second').result;
    expect(conv.record.contextStart).toBe(2);
    await rewindConversation(conv, 0);
    expect(conv.record.contextStart).toBeUndefined();
    expect(conv.history).toHaveLength(0);
    expect((await s.sessions.get(conv.id))!.messageCount).toBe(0);
    await conv.close();
  });

  it('a fork is a new session with the history up to the point; the two go on independently', async () => {
    const model = new ScriptedChatModel([{ content: 'one' }, { content: 'two' }, { content: 'in fork' }, { content: 'in source' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model });
    const { stores: s } = await stores();
    const conv = await Conversation.start({ agent, stores: s });
    await conv.send('first').result;
    await conv.send('second').result;
    conv.record.fileCheckpoints = [
      { message: 0, before: 'a'.repeat(40) },
      { message: 2, before: 'b'.repeat(40) },
    ];
    await conv.save();
    const lease = await lockSession(s.kv, newSessionId());
    const forked = await forkSession(s, conv.id, lease, 2);
    expect(forked.id).not.toBe(conv.id);
    expect(forked.forkedFrom).toBe(conv.id);
    expect(forked.messages.map((m) => m.content)).toEqual(['first', 'one']);
    expect(forked.fileCheckpoints).toEqual([{ message: 0, before: 'a'.repeat(40) }]);
    const fork = Conversation.open(s, { agent }, forked, lease);
    await fork.send('fork turn').result;
    await conv.send('source turn').result;
    expect((await s.sessions.get(fork.id))!.messages.map((m) => m.content)).toEqual(['first', 'one', 'fork turn', 'in fork']);
    expect((await s.sessions.get(conv.id))!.messages.map((m) => m.content)).toEqual(['first', 'one', 'second', 'two', 'source turn', 'in source']);
    const ids = (await s.sessions.list()).map((e) => e.id);
    expect(ids).toEqual(expect.arrayContaining([conv.id, fork.id]));
    await fork.close();
    await conv.close();
  });
});
