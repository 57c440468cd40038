import type { AdkStores } from '../store/adk-stores.js';
import type { SessionLease } from '../store/session-lock.js';
import type { SessionRecord } from '../store/session-record.js';
import type { Conversation } from './conversation.js';

/**
 * Rewinds a conversation to before message `count` (the first `count` messages stay): later
 * messages leave the session's log, a stopped turn and its checkpoint are dropped, and the model's
 * next request carries nothing of what was cut. A context start past the cut (a `/clear` or a
 * summary that stands for cut messages) is dropped too: the context is the messages that remain.
 */
export async function rewindConversation(conv: Conversation, count: number, opts: { /** Keep the record's turn id: a queued turn that rewinds first (a LangGraph branch) is then still seen as not yet started if its worker dies before the turn saves. */ keepTurnId?: boolean } = {}): Promise<void> {
  if (conv.lease.signal.aborted) throw new Error(`session ${conv.id} was taken over by another process; it was not rewound`);
  const r = conv.record;
  const checkpoint = r.checkpointId;
  r.pendingTurn = undefined;
  r.checkpointId = undefined;
  r.pendingInterrupts = [];
  if (!opts.keepTurnId) r.turnId = undefined;
  r.todos = undefined;
  if (r.status === 'active' || r.status === 'interrupted') r.status = 'completed';
  if ((r.contextStart ?? 0) > count) {
    r.contextStart = undefined;
    r.contextSummary = undefined;
  }
  r.fileCheckpoints = r.fileCheckpoints?.filter((c) => c.message < count);
  let next = await conv.stores.sessions.truncate(r, count);
  // The cut lies before the loaded messages: load the context that remains.
  if ((next.messagesFrom ?? 0) > 0 && next.messages.length === 0 && count > 0) next = (await conv.stores.sessions.get(r.id, { from: 'context' })) ?? next;
  conv.record = next;
  if (checkpoint) await conv.stores.checkpoints.delete(checkpoint);
}

/**
 * A new session (on `lease`'s id) with the first `count` messages of `source` (all of them when
 * unset): the same team, workspace, grants and file checkpoints up to there. The source is only read.
 */
export async function forkSession(stores: AdkStores, sourceId: string, lease: SessionLease, count?: number): Promise<SessionRecord> {
  const source = await stores.sessions.get(sourceId);
  if (!source) throw new Error(`session ${sourceId} does not exist`);
  const upTo = Math.min(count ?? source.messages.length, source.messages.length);
  const created = await stores.sessions.create({
    id: lease.sessionId,
    rootAgent: source.rootAgent,
    model: source.model,
    agentsFile: source.agentsFile,
    agentsHash: source.agentsHash,
    workspace: source.workspace,
    title: source.title,
    messages: source.messages.slice(0, upTo),
    status: 'completed',
  });
  if (source.grants?.length) created.grants = [...source.grants];
  if (source.contextStart !== undefined && source.contextStart <= upTo) {
    created.contextStart = source.contextStart;
    if (source.contextSummary) created.contextSummary = { ...source.contextSummary };
  }
  const files = source.fileCheckpoints?.filter((c) => c.message < upTo);
  if (files?.length) created.fileCheckpoints = files;
  created.forkedFrom = source.id;
  created.usage = { promptTokens: 0, completionTokens: 0 };
  await stores.sessions.save(created);
  return (await stores.sessions.get(created.id, { from: 'context' })) ?? created;
}
