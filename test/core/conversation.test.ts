import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel, defineTool, type Message } from '../../src/core/index.js';
import { Conversation, openAdkStores, type AdkStores } from '../../src/core/entries/conversation.js';
import { z } from 'zod';

// Issue 16: Conversation as a public API (adk/conversation): multi-turn history, persistence in a
// store, interrupts answered later (also from another process's point of view: a fresh load), cancel.
const dirs: string[] = [];
const open: AdkStores[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
async function sqliteStores(dir?: string): Promise<{ stores: AdkStores; dir: string }> {
  const d = dir ?? mkdtempSync(join(tmpdir(), 'adk-conv-'));
  if (!dir) dirs.push(d);
  const stores = await openAdkStores(`sqlite://${join(d, 'adk.db')}`);
  open.push(stores);
  return { stores, dir: d };
}
const lastUser = (messages: readonly Message[]) => messages.filter((m) => m.role === 'user').map((m) => m.content);

describe('Conversation (issue 16)', () => {
  it('each turn sees the earlier ones; the history survives closing and loading from the store', async () => {
    const model = new ScriptedChatModel([{ content: 'Hi Ada.' }, { content: 'Your name is Ada.' }, { content: 'Still Ada.' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model });
    const { stores, dir } = await sqliteStores();
    const conv = await Conversation.start({ agent, stores, title: 'names' });
    expect((await conv.send('I am Ada.').result).finalOutput).toBe('Hi Ada.');
    const second = conv.send('What is my name?');
    let streamed = 0;
    for await (const e of second) if (e.output?.message) streamed++;
    expect(streamed).toBe(1);
    expect((await second.result).finalOutput).toBe('Your name is Ada.');
    expect(lastUser(model.calls[1].messages)).toEqual(['I am Ada.', 'What is my name?']);
    const id = conv.id;
    await conv.close();

    const again = await sqliteStores(dir);
    const loaded = await Conversation.load({ agent, stores: again.stores }, id.slice(0, 6));
    expect(loaded.history.map((m) => [m.role, m.content])).toEqual([
      ['user', 'I am Ada.'],
      ['assistant', 'Hi Ada.'],
      ['user', 'What is my name?'],
      ['assistant', 'Your name is Ada.'],
    ]);
    expect((await loaded.send('And now?').result).finalOutput).toBe('Still Ada.');
    expect(lastUser(model.calls[2].messages)).toEqual(['I am Ada.', 'What is my name?', 'And now?']);
    expect(loaded.record).toMatchObject({ status: 'completed', title: 'names' });
    await loaded.close();
  });

  it('one process at a time: a second load of a held session is refused', async () => {
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model: new ScriptedChatModel([{ content: 'ok' }]) });
    const { stores } = await sqliteStores();
    const conv = await Conversation.start({ agent, stores });
    await expect(Conversation.load({ agent, stores }, conv.id)).rejects.toThrow(/in use|held|another process/i);
    await conv.close();
  });

  it('an approval waits in the session; answer() runs the approved call once and finishes the turn', async () => {
    let runs = 0;
    const deploy = defineTool({ name: 'deploy', description: 'Deploys.', parameters: z.object({ env: z.string() }), execute: ({ env }) => `deployed to ${env} (${++runs})` });
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'deploy', arguments: { env: 'prod' } }] }, { content: 'Deployed.' }]);
    const agent = new ChatModelAgent({ name: 'ops', description: 'deploys', model, tools: [deploy], approval: ['deploy'] });
    const { stores, dir } = await sqliteStores();
    const conv = await Conversation.start({ agent, stores });
    const first = await conv.send('ship it').result;
    expect(first.status).toBe('interrupted');
    expect(conv.pending).toMatchObject([{ kind: 'approval', tool: 'deploy', arguments: { env: 'prod' } }]);
    const id = conv.id;
    await conv.close();

    const later = await Conversation.load({ agent, stores: (await sqliteStores(dir)).stores }, id);
    const done = await later.answer({ [later.pending[0].id]: { approved: true } }).result;
    expect(done).toMatchObject({ status: 'completed', finalOutput: 'Deployed.' });
    expect(runs).toBe(1);
    expect(later.record.status).toBe('completed');
    expect(later.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await later.close();
  });

  it('a cancelled turn is kept as far as it got, and the next turn goes on after it', async () => {
    const model = new ScriptedChatModel([{ chunks: ['a ', 'long ', 'answer ', 'that ', 'is ', 'cut'], chunkDelayMs: 50 }, { content: 'continuing' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model });
    const { stores } = await sqliteStores();
    const conv = await Conversation.start({ agent, stores });
    const ac = new AbortController();
    const run = conv.send('tell me', { signal: ac.signal });
    // Esc once two pieces of the answer are on the screen.
    let shown = '';
    for await (const e of run) {
      const stream = e.output?.message?.stream;
      if (!stream) continue;
      try {
        for await (const chunk of stream) if ((shown += chunk.content ?? '') && shown.split(' ').length > 2) ac.abort(new Error('user pressed Esc'));
      } catch {
        // the stream ends with the cancel
      }
    }
    const r = await run.result;
    expect(r.status).toBe('cancelled');
    expect(shown).toBe('a long ');
    expect((await conv.send('continue').result).finalOutput).toBe('continuing');
    // The part of the answer that was shown is in the model's context: "continue" can continue it (issue 15, defect 6).
    const roles = model.calls[1].messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content]);
    expect(roles).toEqual([['user', 'tell me'], ['assistant', 'a long '], ['user', 'continue']]);
    await conv.close();
  });
});
