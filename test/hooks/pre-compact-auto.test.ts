import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent, Runner, ScriptedChatModel, summarizeMiddleware, userMessage, type Message } from '../../src/core/index.js';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { openAdkStores } from '../../src/core/store/index.js';
import { Hooks } from '../../src/core/middlewares/hooks/index.js';

/**
 * Automatic compaction fires PreCompact with `trigger: "auto"` (as `/compact` fires it with
 * "manual"), before the summary is asked for: in a run (the summarize middleware) and between the
 * turns of a session (Conversation).
 */
const dir = () => mkdtempSync(join(tmpdir(), 'adk-precompact-'));
const SUMMARY = 'You are compacting';
const LOG = 'precompact.jsonl';
const preCompactHooks = (cwd: string) => new Hooks({ hooks: { PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: `cat >> ${LOG}; echo >> ${LOG}` }] }] }, cwd });
const logOf = (cwd: string) => readFileSync(join(cwd, LOG), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const filler = (i: number) => `question ${i} ${'lorem ipsum '.repeat(150)}`;

/** A model with a small window whose summary request notes whether the PreCompact hook had run already. */
function model(cwd: string, window: number, seen: boolean[]) {
  const m = new ScriptedChatModel((messages: Message[]) => {
    if (messages[0]!.content.startsWith(SUMMARY)) {
      seen.push(existsSync(join(cwd, LOG)));
      return { content: 'SUMMARY of the earlier questions' };
    }
    return { content: 'fine' };
  });
  return Object.assign(m, { contextWindow: window });
}

describe('PreCompact on automatic compaction', () => {
  it('in a run: the summarize middleware fires PreCompact with trigger auto before it summarises', async () => {
    const cwd = dir();
    const seen: boolean[] = [];
    const hooks = preCompactHooks(cwd);
    const agent = new ChatModelAgent({ name: 'a', description: '', model: model(cwd, 2000, seen), middlewares: [hooks.middleware(), summarizeMiddleware({ keepTurns: 2 })] });
    const history = Array.from({ length: 20 }, (_, i) => [userMessage(filler(i)), { role: 'assistant' as const, content: `answer ${i}` }])
      .flat()
      .map((message) => ({ isUserInput: message.role === 'user', agentName: message.role === 'user' ? '' : 'a', message }));
    for await (const _ of new Runner({ agent }).run([userMessage('now?')], { history })) void _;
    // The summary may take several requests (a long history is summarised in parts); the hook ran before the first, once.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
    expect(logOf(cwd)).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' })]);
  });

  it('in a session: a compaction between turns fires PreCompact with trigger auto', async () => {
    const cwd = dir();
    const seen: boolean[] = [];
    const m = model(cwd, 2000, seen);
    const agent = new ChatModelAgent({ name: 'a', description: '', model: m });
    const hooks = preCompactHooks(cwd);
    const stores = await openAdkStores('memory://');
    const conv = await Conversation.start({
      agent: { agent, hooks, compaction: { model: m, window: 2000, options: { keepTurns: 1 }, overhead: { instruction: '', tools: [] } } },
      stores,
    });
    for (let i = 0; i < 8 && !seen.length; i++) await conv.send(filler(i)).result;
    await conv.close();
    await stores.close();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
    expect(logOf(cwd)).toEqual([expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto' })]);
  });

  it('compact({ force }) (what /compact calls) fires it once with trigger manual and the instructions', async () => {
    const cwd = dir();
    const m = model(cwd, 2000, []);
    const hooks = new Hooks({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command: `cat >> ${LOG}; echo >> ${LOG}` }] }] }, cwd });
    const stores = await openAdkStores('memory://');
    const conv = await Conversation.start({ agent: { agent: new ChatModelAgent({ name: 'a', description: '', model: m }), hooks, compaction: { model: m, window: 2000, options: {}, overhead: { instruction: '', tools: [] } } }, stores });
    await conv.send('hello').result;
    await conv.compact({ force: true, instructions: 'keep the API design' });
    await conv.close();
    await stores.close();
    expect(logOf(cwd)).toEqual([expect.objectContaining({ trigger: 'manual', custom_instructions: 'keep the API design' })]);
  });
});
