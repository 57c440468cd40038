import { planAsMarkdown } from '../text/plan-json.js';
import type { Message } from '../../core/schema/message.js';
import type { ViewAction } from './actions.js';
import { commit, lastCommitted, replaceLive, takeId } from './commit.js';
import { findLastSafeSplitPoint } from './safe-split.js';
import { addToolRows } from './tool-reducer.js';
import type { LiveMessage, ViewState } from './transcript.js';

type Of<T extends ViewAction['type']> = Extract<ViewAction, { type: T }>;

/**
 * Finished paragraphs of a fast stream move into the transcript at most this often. Ink writes a
 * frame at once for each such move, outside its frame limit; until then they stay in the live tail.
 */
export const STREAM_COMMIT_MS = 200;

function findStream(state: ViewState, streamId: string): LiveMessage | undefined {
  return state.live.find((x): x is LiveMessage => x.kind === 'message' && x.streamId === streamId);
}

export function streamStart(state: ViewState, a: Of<'streamStart'>): ViewState {
  if (findStream(state, a.streamId)) return state;
  const [id, s] = takeId(state);
  const item: LiveMessage = {
    kind: 'message',
    id,
    streamId: a.streamId,
    lane: a.lane,
    agent: a.agent,
    runPath: a.runPath,
    text: '',
    thought: '',
    thoughtCommitted: false,
    committedChunks: 0,
    toolNames: [],
  };
  return { ...s, live: [...s.live, item] };
}

export function streamDelta(state: ViewState, a: Of<'streamDelta'>): ViewState {
  const item = findStream(state, a.streamId);
  if (!item) return state;
  let s = state;
  let m: LiveMessage = { ...item };
  if (a.reasoning) {
    m.thoughtStartedAt ??= a.at ?? Date.now();
    m.thought += a.reasoning;
  }
  if (a.toolNames?.length) m.toolNames = [...new Set([...m.toolNames, ...a.toolNames])];
  if (a.content) {
    // Reasoning is over once the answer starts.
    [s, m] = commitThought(s, m, a.at);
    m.text += a.content;
    if (a.content.includes('\n')) m.pendingCut = true;
  }
  s = replaceLive(s, m.id, m);
  if (m.pendingCut && (a.at === undefined || a.at - s.streamCommitAt >= STREAM_COMMIT_MS)) s = commitLive(s, a.at);
  return s;
}

/** Moves the finished paragraphs of every live message into the transcript; `at` stamps the move. */
export function commitLive(state: ViewState, at?: number): ViewState {
  let s = state;
  for (const x of state.live) {
    if (x.kind !== 'message' || !x.pendingCut) continue;
    const [next, m] = commitSafePart(s, x);
    s = replaceLive(next, m.id, { ...m, pendingCut: false });
  }
  return at !== undefined && s.committed !== state.committed ? { ...s, streamCommitAt: at } : s;
}

export function streamEnd(state: ViewState, a: Of<'streamEnd'>): ViewState {
  const item = findStream(state, a.streamId);
  if (!item) return state;
  let s = replaceLive(state, item.id, undefined);
  if (a.outcome === 'retry') {
    // Rows already in <Static> cannot be taken back; say so instead of printing them twice.
    if (item.committedChunks > 0 || item.thoughtCommitted)
      s = commit(s, { kind: 'info', tone: 'muted', text: `(the partial reply from ${item.agent} above was from a failed attempt)` });
    return s;
  }
  let m = item;
  [s, m] = commitThought(s, m);
  s = commitText(s, m, m.text);
  if (a.outcome === 'done' && a.message) {
    s = addUsage(s, a.message);
    s = addToolRows(s, m.agent, a.message.toolCalls ?? []);
  }
  return s;
}

/** A message that arrived whole (not streamed). */
export function wholeAssistantMessage(state: ViewState, agent: string, message: Message): ViewState {
  let [id, s] = takeId(state);
  if (message.reasoningContent?.trim()) s = commit(s, { kind: 'thought', agent, text: message.reasoningContent.trim() });
  const text = message.content.trim();
  if (text) s = commit(s, { kind: 'assistant', agent, text: planAsMarkdown(text) ?? text, messageId: id, showHeader: true });
  s = addUsage(s, message);
  return addToolRows(s, agent, message.toolCalls ?? []);
}

function commitThought(s: ViewState, m: LiveMessage, at?: number): [ViewState, LiveMessage] {
  if (m.thoughtCommitted || !m.thought.trim()) return [s, m];
  const ms = m.thoughtStartedAt === undefined ? undefined : Math.max(0, (at ?? Date.now()) - m.thoughtStartedAt);
  return [commit(s, { kind: 'thought', agent: m.agent, text: m.thought.trim(), ...(ms === undefined ? {} : { ms }) }), { ...m, thoughtCommitted: true }];
}

/** Moves the complete paragraphs of the tail into the transcript; the unfinished rest stays live. */
function commitSafePart(s: ViewState, m: LiveMessage): [ViewState, LiveMessage] {
  const cut = findLastSafeSplitPoint(m.text);
  if (cut <= 0) return [s, m];
  const next = commitText(s, m, m.text.slice(0, cut));
  const committed = next !== s;
  return [next, { ...m, text: m.text.slice(cut).replace(/^\n+/, ''), committedChunks: m.committedChunks + (committed ? 1 : 0) }];
}

function commitText(s: ViewState, m: LiveMessage, text: string): ViewState {
  const raw = text.replace(/\s+$/, '');
  // A planner's plan JSON, arrived whole, reads as a numbered plan (as DeerFlow's plan card does).
  const body = (m.committedChunks === 0 && planAsMarkdown(raw)) || raw;
  if (!body.trim()) return s;
  const last = lastCommitted(s);
  const continues = last?.kind === 'assistant' && last.messageId === m.id;
  return commit(s, { kind: 'assistant', agent: m.agent, text: body, messageId: m.id, showHeader: !continues });
}

function addUsage(s: ViewState, message: Message): ViewState {
  if (!message.usage) return s;
  return {
    ...s,
    usage: {
      promptTokens: s.usage.promptTokens + message.usage.promptTokens,
      completionTokens: s.usage.completionTokens + message.usage.completionTokens,
    },
    contextTokens: message.role === 'assistant' ? message.usage.promptTokens + message.usage.completionTokens : s.contextTokens,
  };
}
