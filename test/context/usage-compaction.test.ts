import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { drainRun, type EventSink } from '../../src/core/conversation/drain-run.js';
import { lockedNewId } from '../../src/cli/session-access.js';
import { loadTeam } from '../../src/cli/team.js';
import { openAdkStores } from '../../src/core/store/index.js';
import { SUMMARY_PROMPT } from '../../src/core/context/summary.js';
import { tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import type { RecordedRequest } from '../support/openai-server.js';
import type { DailyLimits } from '../../src/core/agents/run-budget.js';

// Issue 32, item 4: the requests that write compaction summaries count too. Every request the local
// server answers reports 100 tokens in and 10 out; the turns' totals (what `done`, the session and
// the status line add up) must equal the server's count, summaries included.
const server = useServer();
const isSummaryRequest = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? '').startsWith(SUMMARY_PROMPT.slice(0, 40));
const FILLER = 'Please keep this in mind while we talk about the garden, the weather, the trains and the old library on the hill. '.repeat(3);
const silent: EventSink = { delta() {}, thought() {}, message() {}, transfer() {}, retry() {}, error() {}, interrupt() {}, compaction() {}, todos() {} };

/** A conversation in an 800-token window over the local server (each reply: 100 tokens in, 10 out; summaries answered as such). */
async function smallWindowConversation(dailyBudget?: DailyLimits) {
  const usage = { promptTokens: 100, completionTokens: 10 };
  server().onRequest((r) => (isSummaryRequest(r) ? { content: 'SUMMARY: the user talks about gardens.', usage } : { content: 'Noted.', usage }));
  const dir = tempDir();
  const file = writeAgentsFile(dir, `version: 1\nmodels:\n  small: { model: test-model, base_url: "\${OPENAI_BASE_URL:-}", context_window: 800 }\nagents:\n  helper: { model: small }\n`);
  const home = tempHome();
  const env = { OPENAI_API_KEY: 'k-1234', OPENAI_BASE_URL: server().url, ADK_HOME: home };
  const stores = await openAdkStores(`sqlite://${home}/adk.sqlite`, { env });
  const team = await loadTeam({ agentsFile: file, cwd: dir, env, ...(dailyBudget ? { dailyBudget } : {}) });
  const { lease } = await lockedNewId(stores);
  return { stores, team, conv: await Conversation.create(stores, team, lease) };
}

describe('usage counts compaction summaries', () => {
  it('turns in an 800-token window: the summed usage equals what the server reported, summary requests included', async () => {
    const { stores, team, conv } = await smallWindowConversation();
    const total = { promptTokens: 0, completionTokens: 0 };
    const byModel: Record<string, number> = {};
    try {
      for (let t = 1; t <= 16; t++) {
        const summary = await drainRun(await conv.startTurn(`Turn ${t}. ${FILLER}`, new AbortController().signal), silent);
        expect(summary.status, summary.error?.message).toBe('completed');
        await conv.finishTurn(summary);
        total.promptTokens += summary.usage.promptTokens;
        total.completionTokens += summary.usage.completionTokens;
        for (const [m, u] of Object.entries(summary.usageByModel ?? {})) byModel[m] = (byModel[m] ?? 0) + u.promptTokens;
      }
    } finally {
      await conv.close();
      await team.close();
      await stores.close();
    }
    const requests = server().chatRequests.length;
    expect(server().chatRequests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(2);
    expect(total).toEqual({ promptTokens: requests * 100, completionTokens: requests * 10 });
    expect(byModel).toEqual({ 'test-model': requests * 100 });
  }, 60_000);

  // Issue 44: budgets count "summaries, compaction, fallbacks and retries". Compaction between turns
  // called the model outside any budget: with a cap of 12 model calls a day, the server saw more.
  it("compaction between turns counts in the day's model calls: the server sees exactly the cap, summaries included", async () => {
    const { stores, team, conv } = await smallWindowConversation({ maxModelCalls: 12 });
    let stopped: string | undefined;
    try {
      for (let t = 1; t <= 20 && !stopped; t++) {
        const summary = await drainRun(await conv.startTurn(`Turn ${t}. ${FILLER}`, new AbortController().signal), silent);
        await conv.finishTurn(summary);
        if (summary.status !== 'completed') stopped = `${summary.status}/${summary.incompleteReason}`;
      }
    } finally {
      await conv.close();
      await team.close();
      await stores.close();
    }
    expect(stopped).toBe('incomplete/budget');
    expect(server().chatRequests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(1);
    expect(server().chatRequests).toHaveLength(12);
  }, 60_000);
});
