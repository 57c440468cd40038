import { isSummaryMessage, findStepCut, findTurnCut, keepCallsWithResults } from './cut.js';
import { summarizedCount, writeSummary, type SummaryOptions } from './summary.js';
import type { Message } from '../schema/message.js';

/** How compactMessages sizes its cut: the summary model and token counter, the context window and the turns to keep. */
export interface CompactOptions extends Omit<SummaryOptions, 'inputBudget'> {
  /** The model's context window, in tokens. */
  window: number;
  /** User turns kept verbatim (fewer when they do not fit in half the window); 0 summarises everything. */
  keepTurns: number;
  /** Awaited once something will be cut, before the summary is asked for (PreCompact hooks). */
  beforeSummary?: (() => Promise<void>) | undefined;
}

/** What compaction decided: the first `cut` messages go, replaced by `summary` (absent when the summary failed: they are dropped). */
export interface Compaction {
  cut: number;
  /** How many original messages the new summary (or the drop) stands for, counting those an earlier summary covered. */
  summarized: number;
  summary?: string | undefined;
  error?: Error | undefined;
}

/**
 * Compacts a conversation (no system messages; it may start with an earlier summary): the last
 * turns stay, everything before them becomes one summary. Undefined when nothing can be cut. A
 * failed summary (not a cancel) is reported as `error`: the caller drops the oldest messages instead.
 */
export async function compactMessages(body: readonly Message[], opts: CompactOptions): Promise<Compaction | undefined> {
  const min = body.length && isSummaryMessage(body[0]) ? 1 : 0;
  const tailBudget = opts.window / 2;
  let cut = opts.keepTurns === 0 ? body.length : 0;
  for (let keep = opts.keepTurns; keep >= 1; keep--) {
    cut = findTurnCut(body, keep);
    if (cut > min && (await opts.counter.count(body.slice(cut))) <= tailBudget) break;
  }
  // One turn is all there is, or its tail is still too large: cut inside the current tool loop.
  if (opts.keepTurns > 0 && (cut <= min || (await opts.counter.count(body.slice(cut))) > tailBudget)) cut = Math.max(cut, findStepCut(body, 2));
  cut = keepCallsWithResults(body, cut);
  if (cut <= min) return undefined;
  const summarized = summarizedCount(body[0]) + cut - min;
  await opts.beforeSummary?.();
  try {
    const summary = await writeSummary(body.slice(0, cut), { ...opts, inputBudget: Math.floor(opts.window * 0.6) });
    return { cut, summarized, summary };
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    return { cut, summarized, error: e instanceof Error ? e : new Error(String(e)) };
  }
}
