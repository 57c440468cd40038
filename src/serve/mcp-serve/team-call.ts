import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { AgentEvent } from '../../core/index.js';
import { Conversation } from '../../core/conversation/conversation.js';
import { drainRun, type RunSummary } from '../../core/conversation/drain-run.js';
import { describeInterrupt } from '../../core/conversation/describe-interrupt.js';
import { targetsFromFlags } from '../../core/conversation/answers.js';
import type { AdkStores } from '../../core/store/adk-stores.js';
import { lockSession, type LockOptions, type SessionLease } from '../../core/store/session-lock.js';
import { newSessionId } from '../../core/store/session-store.js';
import type { SessionRecord } from '../../core/store/session-record.js';
import type { ServedTeam } from '../session-hub.js';
import { formAnswer, interruptForm, type Waiting } from './interrupt-form.js';
import { ProgressSink, type Report } from './progress-sink.js';
import type { TeamTool } from './team-tools.js';
import type { TeamToolInput, TeamToolOutput } from './tool-shapes.js';
import { waitingNotice } from './waiting-notice.js';
import { denials, describePending, MAX_DENIAL_ROUNDS, onlyApprovals, type SessionPolicy } from '../../core/conversation/session-policy.js';

/** Where every call's session and team come from (the CLI builds teams from agents.yaml). */
export interface TeamHost {
  stores: AdkStores;
  /** The team of a new session: the agents.yaml agent named. */
  newTeam(agent: string): Promise<ServedTeam>;
  /** The team a saved session runs with (its agents file, workspace and root agent; a changed file is refused). */
  sessionTeam(record: SessionRecord): Promise<ServedTeam>;
  /** Values no client may see (API keys, the HTTP token): redacted from every result and progress line. */
  secrets(): string[];
  lease?: LockOptions | undefined;
  log: (line: string) => void;
  /** How new sessions run when nobody answers (`adk mcp serve --on-approval deny` …), kept with each session. */
  policy?: SessionPolicy | undefined;
}

type Conv = Conversation<ServedTeam>;

/** What the client offers this call: cancellation, progress (it sent a token), elicitation (it declared it). */
export interface CallIo {
  signal: AbortSignal;
  report?: Report | undefined;
  elicit?: ((form: ElicitRequestFormParams, signal: AbortSignal) => Promise<ElicitResult>) | undefined;
  /** The client's name, for the words of a declined approval. */
  client: string;
}

/** Answers to waiting interrupts: resume data by id, or nothing to resume with now. */
type Answers = { targets: Record<string, unknown> } | { later: true; note?: string } | { cancelled: true };

/**
 * One tool call: a turn of an adk session (a new one, or `session` continued) run to its end, as
 * `adk run --session` runs it (same stores, lease and Conversation). Interrupts are asked as
 * elicitation forms when the client can show them and the turn resumed with the answers; else
 * the turn stays saved as interrupted and the result says how to answer it.
 */
export async function callTeam(host: TeamHost, tool: TeamTool, input: TeamToolInput, io: CallIo): Promise<TeamToolOutput> {
  const opened = await openConversation(host, tool, input.session);
  if ('error' in opened) return { answer: opened.error, sessionId: input.session ?? '', status: 'error' };
  const { conv } = opened;
  try {
    return await drive(conv, tool, input.task, io);
  } catch (e) {
    host.log(`${tool.name}: session ${conv.id}: ${(e as Error).message}`);
    return { answer: (e as Error).message, sessionId: conv.id, status: 'error' };
  } finally {
    await conv.team.close?.().catch(() => {});
    await conv.close().catch(() => {});
  }
}

/** The call's conversation, leased by this process: the session named, or a new one on the tool's team. */
async function openConversation(host: TeamHost, tool: TeamTool, session: string | undefined): Promise<{ conv: Conv } | { error: string }> {
  let lease: SessionLease | undefined;
  let team: ServedTeam | undefined;
  try {
    if (!session) {
      team = await host.newTeam(tool.agent);
      lease = await lockSession(host.stores.kv, newSessionId(), host.lease);
      // Marked served: a client may continue only the sessions made for clients, never a CLI one.
      return { conv: following(await Conversation.create(host.stores, team, lease, { served: true, policy: host.policy })) };
    }
    // The lease comes first: what is read next is what this process alone will change.
    // The whole id, not a prefix: a client must not find (or be shown) ids it was never given.
    const id = session;
    const record0 = /^[a-z0-9]+$/.test(id) ? await host.stores.sessions.get(id, { from: 'context' }) : undefined;
    if (!record0?.served) throw new Error(`session ${session} does not exist`);
    lease = await lockSession(host.stores.kv, id, host.lease);
    const record = await host.stores.sessions.get(id, { from: 'context' });
    if (!record) throw new Error(`session ${session} does not exist`);
    // A session continues on its own team: another tool's session would silently switch teams.
    if (record.rootAgent !== tool.agent) throw new Error(`session ${record.id} is a conversation with the team '${record.rootAgent}', not '${tool.agent}': continue it with that tool`);
    team = await host.sessionTeam(record);
    return { conv: following(Conversation.open(host.stores, team, record, lease)) };
  } catch (e) {
    await team?.close?.().catch(() => {});
    await lease?.release().catch(() => {});
    return { error: (e as Error).message };
  }
}

/** Runs the turn (and the answers to its interrupts) to an end this call can report. */
async function drive(conv: Conv, tool: TeamTool, task: string, io: CallIo): Promise<TeamToolOutput> {
  const sink = new ProgressSink(io.report ?? (() => {}));
  let next: string | undefined = task;
  let events: AsyncIterable<AgentEvent>;
  const waiting = conv.record.status === 'interrupted' ? conv.pending : [];
  if (waiting.length && waiting.every((p) => p.kind === 'input')) {
    // The session waits on a question (asked in an earlier call): this task is its answer.
    events = await conv.resumeTurn(targetsFromFlags(waiting, { input: task }), io.signal);
    next = undefined;
  } else if (waiting.length) {
    // Approvals left waiting by an earlier call: asked now; the task runs once that turn is done.
    const answers = await ask(waiting as Waiting[], tool, io);
    if (!('targets' in answers)) return stopped(conv, waiting as Waiting[], '', answers);
    events = await conv.resumeTurn(answers.targets, io.signal);
  } else {
    events = await conv.startTurn(task, io.signal);
    next = undefined;
  }
  for (let denied = 0; ; ) {
    const summary = await drainRun(events, sink, io.signal);
    await conv.finishTurn(summary);
    const onApproval = conv.record.policy?.onApproval;
    if (summary.status === 'interrupted' && onApproval === 'deny' && onlyApprovals(conv.pending) && denied++ < MAX_DENIAL_ROUNDS) {
      // Nobody is there to approve: each call is answered "no", with a reason the model sees.
      events = await conv.resumeTurn(denials(conv.pending), io.signal);
      continue;
    }
    if (summary.status === 'interrupted' && (onApproval === 'fail' || onApproval === 'deny') && !conv.pending.some((p) => p.kind === 'budget')) {
      const calls = describePending(conv.pending);
      return { answer: `${summary.output ? `${summary.output}\n\n` : ''}(Stopped: approval needed, and this server runs unattended (on_approval: ${onApproval}): ${calls}; nothing of it ran. Session ${conv.id} is saved.)`, sessionId: conv.id, status: 'incomplete' };
    }
    if (summary.status === 'interrupted') {
      const points = summary.interrupts.filter((c) => !c.cancelled).map(describeInterrupt);
      const answers = await ask(points, tool, io);
      if (!('targets' in answers)) return stopped(conv, points, summary.output, answers);
      events = await conv.resumeTurn(answers.targets, io.signal);
      continue;
    }
    if (summary.status === 'completed' && next !== undefined) {
      events = await conv.startTurn(next, io.signal);
      next = undefined;
      continue;
    }
    return ended(conv, summary);
  }
}

/** Asks the person each waiting interrupt as a form; any left unanswered keeps the whole turn waiting. */
async function ask(points: Waiting[], tool: TeamTool, io: CallIo): Promise<Answers> {
  if (!io.elicit || !points.length) return { later: true };
  const targets: Record<string, unknown> = {};
  for (const w of points) {
    const form = interruptForm(w, tool.agent);
    if (!form) return { later: true };
    let reply: ElicitResult;
    try {
      reply = await io.elicit(form, io.signal);
    } catch (e) {
      if (io.signal.aborted) return { cancelled: true };
      // A client that declared forms but cannot show this one: the turn waits, as without elicitation.
      return { later: true, note: `(The MCP client could not ask: ${(e as Error).message}.)` };
    }
    const answer = formAnswer(w, reply, io.client);
    // Half an answer would run one call and ask the rest again at once: nothing runs until all are answered.
    if ('later' in answer) return { later: true };
    targets[w.id] = answer.data;
  }
  return { targets };
}

/** The turn waits for a person: the result says for what, and how to answer it. */
function stopped(conv: Conv, points: Waiting[], output: string, why: Exclude<Answers, { targets: unknown }>): TeamToolOutput {
  const notice = waitingNotice(conv.id, points);
  const said = [output.trim(), 'note' in why ? why.note : undefined].filter(Boolean).map((s) => `${s}\n\n`).join('');
  if ('cancelled' in why) return { answer: `${said}Cancelled while waiting for an answer; session ${conv.id} is saved. ${notice.text}`, sessionId: conv.id, status: 'interrupted', resume: notice.command };
  return { answer: `${said}${notice.text}`, sessionId: conv.id, status: 'interrupted', resume: notice.command };
}

/** A turn that ended: its answer, or what stopped it. */
function ended(conv: Conv, s: RunSummary): TeamToolOutput {
  const id = conv.id;
  switch (s.status) {
    case 'completed':
      return { answer: s.output, sessionId: id, status: 'completed' };
    case 'cancelled':
      return { answer: `Cancelled; session ${id} is saved (continue it with session "${id}", or adk resume ${id}).`, sessionId: id, status: 'cancelled' };
    case 'incomplete':
      return { answer: `${s.output}\n\n(The answer was cut off: ${s.incompleteReason ?? s.error?.message ?? 'the model stopped early'}.)`.trim(), sessionId: id, status: 'incomplete' };
    default:
      return { answer: s.error?.message ?? 'the run failed', sessionId: id, status: 'error' };
  }
}

/** A conversation this server runs: it keeps the session's saved policy. */
function following(conv: Conv): Conv {
  conv.followsPolicy = true;
  return conv;
}
