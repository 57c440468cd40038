import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel } from '../../src/core/index.js';
import { Conversation, openAdkStores, type AdkStores } from '../../src/core/entries/conversation.js';
import { FileCheckpoints } from '../../src/cli/rewind/file-checkpoints.js';
import { rewindCommand } from '../../src/cli/rewind/rewind-command.js';
import type { ChatHost } from '../../src/cli/chat/chat-host.js';
import type { ChatUi } from '../../src/ui/index.js';

// Issue 32: the `/rewind` choices "code only" and "conversation only" each restore their half alone.
const dirs: string[] = [];
const open: AdkStores[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A session of two turns: the second one rewrote a.txt (as write_file would). */
async function twoTurns() {
  const dir = mkdtempSync(join(tmpdir(), 'adk-choice-'));
  dirs.push(dir);
  const work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'a.txt'), 'before\n');
  const stores = await openAdkStores('memory://');
  open.push(stores);
  const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model: new ScriptedChatModel([{ content: 'one' }, { content: 'two' }]) });
  const conv = await Conversation.start({ agent: { agent, workspace: work }, stores });
  const files = new FileCheckpoints(join(dir, 'home'));
  for (const [i, q] of ['first', 'second'].entries()) {
    const before = await files.snapshot(conv);
    await conv.send(q).result;
    files.anchor(conv, i * 2, before);
    if (q === 'second') writeFileSync(join(work, 'a.txt'), 'by the model\n');
    await files.after(conv);
    await conv.save();
  }
  const host = { conv, stores, files, onChange: () => {}, openForked: async () => {} } as unknown as ChatHost;
  return { work, conv, host };
}

/** A ChatUi whose lists answer from a script (a message by its index in the log, then a choice); what it shows is kept. */
function scriptedUi(picks: string[]) {
  const shown: string[] = [];
  let input: string | undefined;
  const ui = {
    info: (t: string) => void shown.push(t),
    error: (t: string) => void shown.push(`error: ${t}`),
    markdown: (t: string) => void shown.push(t),
    pick: async (_title: string, items: Array<{ value: string }>) => {
      const want = picks.shift();
      return items.find((i) => i.value === want)?.value;
    },
    setInput: (t: string) => void (input = t),
  } as unknown as ChatUi;
  return { ui, shown, input: () => input };
}

describe('/rewind choices (issue 32)', () => {
  it('code only: the file goes back, the conversation stays', async () => {
    const { work, conv, host } = await twoTurns();
    const { ui, shown, input } = scriptedUi(['2', 'code']);
    await rewindCommand(host, ui);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('before\n');
    expect(conv.history.map((m) => m.content)).toEqual(['first', 'one', 'second', 'two']);
    expect(shown.join('\n')).toMatch(/M a\.txt/);
    expect(input()).toBeUndefined();
    // The anchors are saved with the session: what `adk resume` finds again.
    const stored = await conv.stores.sessions.get(conv.id);
    expect(stored!.fileCheckpoints).toEqual([
      expect.objectContaining({ message: 0, after: expect.any(String) }),
      expect.objectContaining({ message: 2, after: expect.any(String) }),
    ]);
  });

  it('conversation only: the messages go, the file stays; the message is back in the box', async () => {
    const { work, conv, host } = await twoTurns();
    const { ui, input } = scriptedUi(['2', 'conversation']);
    await rewindCommand(host, ui);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('by the model\n');
    expect(conv.history.map((m) => m.content)).toEqual(['first', 'one']);
    expect((await conv.stores.sessions.get(conv.id))!.messageCount).toBe(2);
    expect(input()).toBe('second');
    // The rewound turn's checkpoint went with it; the first turn's stays.
    expect(conv.record.fileCheckpoints!.map((c) => c.message)).toEqual([0]);
  });
});
