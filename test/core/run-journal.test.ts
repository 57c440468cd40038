import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel, defineTool } from '../../src/core/index.js';
import { Conversation, openAdkStores, type AdkStores } from '../../src/core/entries/conversation.js';
import { UNFINISHED_CALL_RESULT, type JournalEntry, type JournalStore } from '../../src/core/agents/run-journal.js';

// Issue 17: a worker that dies mid-turn has its turn run again by another; the run's journal hands
// back the model replies and tool results of the first attempt, so no finished tool runs twice.
const dirs: string[] = [];
const open: AdkStores[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function stores(): Promise<AdkStores> {
  const d = mkdtempSync(join(tmpdir(), 'adk-journal-'));
  dirs.push(d);
  const s = await openAdkStores(`sqlite://${join(d, 'adk.db')}`);
  open.push(s);
  return s;
}

function memoryJournal(): JournalStore & { entries: Map<string, JournalEntry> } {
  const entries = new Map<string, JournalEntry>();
  return {
    entries,
    read: async (k) => structuredClone(entries.get(k)),
    write: async (k, e) => void entries.set(k, structuredClone(e)),
    forget: async (k) => void entries.delete(k),
  };
}

function team(script: ConstructorParameters<typeof ScriptedChatModel>[0], runs: string[], approval: string[] = []) {
  const append = defineTool({
    name: 'append',
    description: 'appends a line',
    parameters: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
    execute: async ({ line }) => {
      runs.push(line);
      return `appended ${line}`;
    },
  });
  const model = new ScriptedChatModel(script);
  return { model, agent: new ChatModelAgent({ name: 'bot', description: 'appends', model, tools: [append], approval }) };
}

describe('run journal (issue 17)', () => {
  it('a turn run again after its worker died replays the finished tool call instead of running it twice', async () => {
    const s = await stores();
    const journal = memoryJournal();
    const runs: string[] = [];
    // The first attempt: the tool runs, then the worker "dies" during the next model call.
    const first = team([{ toolCalls: [{ name: 'append', arguments: { line: 'once' } }] }, { delayMs: 60_000, content: 'never' }], runs);
    const conv = await Conversation.start({ agent: first.agent, stores: s });
    const abort = new AbortController();
    const events = await conv.startTurn('append once', abort.signal, undefined, { turnId: 'job-1', journal });
    for await (const e of events) if (e.output?.message?.message?.role === 'tool') break;
    abort.abort();
    expect(runs).toEqual(['once']);
    expect(conv.turnState('job-1')).toBe('running');
    await conv.close();

    // Another worker takes the job: same turn id, same journal, a fresh model and team.
    const second = team([{ content: 'Done: appended once.' }], runs);
    const again = await Conversation.load({ agent: second.agent, stores: s }, conv.id);
    expect(again.turnState('job-1')).toBe('running');
    const shown: string[] = [];
    const stream = again.send('append once', { turnId: 'job-1', journal });
    for await (const e of stream) {
      const v = e.output?.message;
      if (v) shown.push(`${e.replayed ? 'replayed' : 'new'}:${v.message?.role ?? 'stream'}`);
    }
    const result = await stream.result;
    expect(result.finalOutput).toBe('Done: appended once.');
    expect(runs).toEqual(['once']); // not run again
    expect(second.model.calls).toHaveLength(1); // the first reply came from the journal
    // The model sees the first attempt's call and result, under their original ids.
    expect(second.model.calls[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(shown).toEqual(['replayed:assistant', 'replayed:tool', 'new:stream']);
    expect(again.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(again.turnState('job-1')).toBe('ended');
    await again.close();
  });

  it('a call that started and never recorded an end is answered as unfinished, not run again', async () => {
    const s = await stores();
    const journal = memoryJournal();
    journal.entries.set('model:agent:bot#1', {
      model: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', function: { name: 'append', arguments: '{"line":"x"}' } }] },
    });
    journal.entries.set('tool:agent:bot;tool:append:call_1', { toolStarted: true });
    const runs: string[] = [];
    const t = team([{ content: 'I could not tell whether it ran.' }], runs);
    const conv = await Conversation.start({ agent: t.agent, stores: s });
    const result = await conv.send('append x', { turnId: 'job-2', journal }).result;
    expect(runs).toEqual([]);
    expect(result.finalOutput).toBe('I could not tell whether it ran.');
    expect(t.model.calls[0]!.messages.at(-1)).toMatchObject({ role: 'tool', content: UNFINISHED_CALL_RESULT });
    await conv.close();
  });

  it('a new turn id starts a turn; an ended one is reported as ended', async () => {
    const s = await stores();
    const t = team([{ content: 'one' }, { content: 'two' }], []);
    const conv = await Conversation.start({ agent: t.agent, stores: s });
    expect(conv.turnState('a')).toBe('new');
    await conv.send('first', { turnId: 'a', journal: memoryJournal() }).result;
    expect(conv.turnState('a')).toBe('ended');
    expect(conv.turnState('b')).toBe('new');
    await conv.send('second', { turnId: 'b', journal: memoryJournal() }).result;
    expect(conv.history.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'second']);
    await conv.close();
  });

  it('an approved call that finished before its worker died is not asked about again, nor run again', async () => {
    const s = await stores();
    const runs: string[] = [];
    const first = team([{ toolCalls: [{ name: 'append', arguments: { line: 'approved' } }] }, { delayMs: 60_000, content: 'never' }], runs, ['append']);
    const conv = await Conversation.start({ agent: first.agent, stores: s });
    expect((await conv.send('append it').result).status).toBe('interrupted');
    const [pending] = conv.pending;
    // The continuation (a queued job) approves it; the tool runs; the worker dies in the next model call.
    const journal = memoryJournal();
    const events = await conv.resumeTurn({ [pending!.id]: { approved: true } }, new AbortController().signal, undefined, { turnId: 'resume-1', journal });
    for await (const e of events) if (e.output?.message?.message?.role === 'tool') break;
    expect(runs).toEqual(['approved']);
    await conv.close();

    const second = team([{ content: 'It is appended.' }], runs, ['append']);
    const again = await Conversation.load({ agent: second.agent, stores: s }, conv.id);
    expect(again.turnState('resume-1')).toBe('running');
    const result = await again.answer({ [pending!.id]: { approved: true } }, { turnId: 'resume-1', journal }).result;
    expect(result.status).toBe('completed');
    expect(result.finalOutput).toBe('It is appended.');
    expect(runs).toEqual(['approved']);
    await again.close();
  });
});
