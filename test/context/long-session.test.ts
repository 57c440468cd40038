import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { drainRun, type EventSink } from '../../src/core/conversation/drain-run.js';
import { lockedNewId } from '../../src/cli/session-access.js';
import { loadTeam } from '../../src/cli/team.js';
import { openAdkStores } from '../../src/core/store/index.js';
import { SUMMARY_PROMPT } from '../../src/core/context/summary.js';
import { expectExit, ofType, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import type { RecordedRequest } from '../support/openai-server.js';

const server = useServer();
const WINDOW = 4000;

/** What the server counts: OpenAI's o200k tokens of every message, its tool calls and the tool definitions. */
function requestTokens(body: any): number {
  let n = 0;
  for (const m of body.messages) {
    n += 4 + countTokens(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''));
    for (const c of m.tool_calls ?? []) n += countTokens(c.function.name) + countTokens(c.function.arguments);
  }
  if (body.tools) n += countTokens(JSON.stringify(body.tools));
  return n;
}

const text = (body: any) => body.messages.map((m: any) => (typeof m.content === 'string' ? m.content : '')).join('\n');
const isSummaryRequest = (r: RecordedRequest) => r.body.messages[0]?.content?.startsWith(SUMMARY_PROMPT.slice(0, 40));
const FILLER = 'Please keep this in mind while we talk about the garden, the weather, the trains and the old library on the hill. ';

/** A scripted model that checks every request's size, summarises by keeping the facts, and answers from what it was sent. */
function scriptModel(sizes: number[]): void {
  server().onRequest((r) => {
    sizes.push(requestTokens(r.body));
    const all = text(r.body);
    if (isSummaryRequest(r)) {
      const facts = [...new Set(all.match(/FACT-\d+: \w+/g) ?? [])];
      return { content: `Facts the user gave: ${facts.join('; ')}.` };
    }
    const last = r.body.messages.at(-1).content as string;
    const asked = /What is (FACT-\d+)\?/.exec(last)?.[1];
    if (asked) {
      const found = new RegExp(`${asked}: (\\w+)`).exec(all)?.[1];
      return { content: found ? `${asked} is ${found}.` : `I do not know ${asked}.` };
    }
    return { content: `Noted ${/FACT-\d+/.exec(last)?.[0] ?? 'that'}.`, usage: { promptTokens: requestTokens(r.body), completionTokens: 5 } };
  });
}

/** A session on a one-agent team whose model has a 4,000-token window, in a fresh ADK_HOME, driven in this process. */
async function newConversation(settings = '') {
  const dir = tempDir();
  const file = writeAgentsFile(dir, `version: 1\nmodels:\n  small: { model: test-model, base_url: "\${OPENAI_BASE_URL:-}", context_window: ${WINDOW} }\nagents:\n  helper: { model: small${settings ? `, ${settings}` : ''} }\n`);
  const home = tempHome();
  const env = { OPENAI_API_KEY: 'k-1234', OPENAI_BASE_URL: server().url, ADK_HOME: home };
  const stores = await openAdkStores(`sqlite://${home}/adk.sqlite`, { env });
  const team = await loadTeam({ agentsFile: file, cwd: dir, env });
  const { lease } = await lockedNewId(stores);
  return { dir, file, home, env, stores, team, conv: await Conversation.create(stores, team, lease) };
}

const silent: EventSink = { delta() {}, thought() {}, message() {}, transfer() {}, retry() {}, error() {}, interrupt() {}, compaction() {}, todos() {} };

describe('long sessions stay inside the context window', () => {
  it('holds a 200-turn conversation in a 4,000-token window, remembers turn 1 through summaries, and continues in a new process', async () => {
    const sizes: number[] = [];
    scriptModel(sizes);
    const { dir, file, home, env, stores, team, conv } = await newConversation('instruction: Remember what the user tells you.');
    let compactions = 0;
    for (let t = 1; t < 200; t++) {
      const events = await conv.startTurn(`Turn ${t}. FACT-${t}: word${t * 7}. ${FILLER}`, new AbortController().signal);
      const sink = { ...silent, compaction: () => void compactions++ };
      const summary = await drainRun(events, sink);
      expect(summary.status, summary.error?.message).toBe('completed');
      await conv.finishTurn(summary);
    }
    const id = conv.id;
    await conv.close();
    await team.close();
    await stores.close();

    const summaries = server().chatRequests.filter(isSummaryRequest).length;
    expect(summaries).toBeGreaterThan(0);
    expect(compactions).toBeGreaterThan(0);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);

    // Turn 200, in a new process: the answer comes from the summary of turn 1.
    const r = await expectExit(['run', '--agents', file, '--session', id, '--json', 'What is FACT-1?'], 0, { env, cwd: dir, timeoutMs: 60_000 });
    expect(ofType(r.lines, 'done')[0].output).toBe('FACT-1 is word7.');
    expect(Math.max(...sizes)).toBeLessThanOrEqual(WINDOW);
    const last = server().chatRequests.at(-1)!;
    expect(text(last.body)).toContain('[Summary of the earlier conversation');
    expect(requestTokens(last.body)).toBeLessThan(WINDOW * 0.8);

    // Nothing was deleted: every message of the 200 turns is in the session's log.
    const again = await openAdkStores(`sqlite://${home}/adk.sqlite`, { env });
    const record = (await again.sessions.get(id))!;
    expect(record.messages.filter((m) => m.role === 'user')).toHaveLength(200);
    expect(record.contextSummary?.summarized).toBeGreaterThan(300);
    await again.close();
  }, 240_000);

  it('/compact that fails changes nothing; one that works moves the context start and marks it on resume', async () => {
    let failing = true;
    server().onRequest((r) => {
      if (isSummaryRequest(r)) return failing ? { status: 400, errorMessage: 'summaries are off today' } : { content: 'SUMMARY: two greetings.' };
      return { content: 'hello back' };
    });
    const { stores, team, conv } = await newConversation();
    for (const text of ['hello', 'hello again']) await conv.finishTurn(await drainRun(await conv.startTurn(text, new AbortController().signal), silent));
    await expect(conv.compact({ force: true })).rejects.toThrow(/summaries are off today/);
    expect(conv.record.contextStart).toBeUndefined();
    expect(conv.record.contextSummary).toBeUndefined();
    failing = false;
    expect(await conv.compact({ force: true, instructions: 'keep names' })).toEqual({ summarized: 4 });
    expect(conv.record).toMatchObject({ contextStart: 4, contextSummary: { text: 'SUMMARY: two greetings.', summarized: 4 } });
    const { sessionItems } = await import('../../src/cli/chat/history-items.js');
    const reopened = (await stores.sessions.get(conv.id, { from: 'context' }))!;
    expect(sessionItems(reopened).at(-1)).toMatchObject({ kind: 'info', text: '⋯ 4 earlier messages summarised' });
    await conv.close();
    await team.close();
    await stores.close();
  });
});

describe('counting stays off the hot path', () => {
  it('a small request never loads the tokenizer (a byte count settles it)', async () => {
    const { execFileSync } = await import('node:child_process');
    const { resolve } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const url = (p: string) => pathToFileURL(resolve(p)).href;
    const out = JSON.parse(execFileSync(process.execPath, [resolve('test/context/fixtures/small-run-probe.mjs'), url('test/support/load-hook.mjs'), url('dist/core/index.js')], { encoding: 'utf8' }));
    expect(out.output).toBe('hi');
    expect(out.loaded.some((u: string) => u.includes('/dist/core/middlewares/summarize.js'))).toBe(true);
    expect(out.loaded.filter((u: string) => u.includes('gpt-tokenizer'))).toEqual([]);
  });
});
