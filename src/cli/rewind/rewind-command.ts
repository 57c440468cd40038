import type { ChatUi } from '../../ui/index.js';
import type { HistoryMessage } from '../../core/conversation/conversation.js';
import { messageTotal } from '../../core/conversation/conversation.js';
import { forkSession, rewindConversation } from '../../core/conversation/rewind.js';
import { lockedNewId } from '../session-access.js';
import type { ChatHost } from '../chat/chat-host.js';
import { describeRewindFiles, type CodeRewindPlan } from './file-checkpoints.js';

/** A message one can go back to: a user message of the session's log. */
export interface RewindPoint {
  /** Its index in the session's log: rewinding keeps the messages before it. */
  index: number;
  /** What the person typed (attached files left out). */
  text: string;
}

/** The person's text of a stored user message: `@file` attachments (`<file path=…>` blocks after it) are cut. */
export function typedText(content: string): string {
  const at = content.search(/\n\n<file path="[^"]*">\n/);
  return at >= 0 ? content.slice(0, at) : content;
}

/** The user messages of a session's log, newest first. */
export function rewindPoints(messages: readonly HistoryMessage[], from = 0): RewindPoint[] {
  const points: RewindPoint[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'user' && !m.agentName) points.push({ index: from + i, text: typedText(m.content) });
  });
  return points.reverse();
}

const firstLine = (text: string) => text.split('\n').find((l) => l.trim())?.trim() ?? '(empty)';

/**
 * `/rewind` (and Esc Esc): pick an earlier message, see the files restoring the code would change,
 * then restore the conversation, the code or both, or fork a new session from there.
 */
export async function rewindCommand(host: ChatHost, ui: ChatUi): Promise<void> {
  const conv = host.conv;
  const stored = await host.stores.sessions.get(conv.id);
  const points = rewindPoints((stored?.messages ?? []) as HistoryMessage[]);
  if (!points.length) return ui.info('Nothing to rewind yet: no message was sent in this session.', 'muted');
  if (!ui.pick) return ui.error('/rewind needs the interactive list.');
  const off = host.files.offReason(conv.record.workspace ?? process.cwd());
  const picked = await ui.pick(
    'Rewind to before which message?',
    points.map((p, n) => ({
      value: String(p.index),
      label: firstLine(p.text),
      detail: `${n === 0 ? 'the last message' : `${n + 1} messages back`}${host.files.anchorFor(conv.record, p.index) ? '' : ' · no code checkpoint'}`,
    })),
  );
  if (picked === undefined) return;
  const point = points.find((p) => String(p.index) === picked)!;
  const plan = await host.files.plan(conv, point.index);
  const files = plan?.files ?? [];
  if (files.length) ui.markdown(`Restoring the code changes ${files.length} file${files.length > 1 ? 's' : ''}:\n\n\`\`\`text\n${describeRewindFiles(files).join('\n')}\n\`\`\``, 'rewind');
  else ui.info(off ? `Files are not checkpointed here (${off}): only the conversation can be rewound.` : 'No file changed since that message: the code stays as it is.', 'muted');
  const choice = await ui.pick(`Rewind to before “${firstLine(point.text).slice(0, 40)}”: restore what?`, [
    ...(files.length ? [{ value: 'both', label: 'Conversation and code', detail: `${files.length} file${files.length > 1 ? 's' : ''} and the messages since` }] : []),
    { value: 'conversation', label: 'Conversation only', detail: 'the messages since go; files stay as they are' },
    ...(files.length ? [{ value: 'code', label: 'Code only', detail: 'files go back; the conversation stays' }] : []),
    { value: 'fork', label: 'Fork from here', detail: 'a new session with the messages before it; this one stays' },
  ]);
  if (!choice) return ui.info('Nothing was rewound.', 'muted');
  if (choice === 'fork') return forkFrom(host, point.index, ui, point.text);
  if ((choice === 'code' || choice === 'both') && plan) await restoreCode(host, plan, ui);
  if (choice === 'conversation' || choice === 'both') {
    const dropped = messageTotal(conv.record) - point.index;
    await rewindConversation(conv, point.index);
    host.onChange?.();
    ui.info(`Rewound the conversation to before “${firstLine(point.text).slice(0, 60)}” (${dropped} message${dropped === 1 ? '' : 's'} dropped); the message is back in the input.`, 'success');
    ui.setInput?.(point.text);
  }
}

async function restoreCode(host: ChatHost, plan: CodeRewindPlan, ui: ChatUi): Promise<void> {
  await host.files.restore(host.conv, plan);
  ui.info(`Restored ${plan.files.length} file${plan.files.length > 1 ? 's' : ''}: ${plan.files.map((f) => f.path).join(', ')}`, 'success');
}

/**
 * `/fork`: a new session with this one's messages (all, or those before `index`), switched to; the
 * session left stays as it was. Its file checkpoints come along.
 */
export async function forkFrom(host: ChatHost, index: number | undefined, ui: ChatUi, text?: string): Promise<void> {
  const from = host.conv;
  const { lease } = await lockedNewId(host.stores);
  let record;
  try {
    record = await forkSession(host.stores, from.id, lease, index);
    await host.files.fork(from.id, record.id);
  } catch (e) {
    await lease.release();
    throw e;
  }
  await host.openForked(record, lease);
  ui.info(`Forked session ${from.id} into ${record.id}${index === undefined ? '' : ` before “${firstLine(text ?? '').slice(0, 40)}”`}; ${from.id} stays as it was (/resume ${from.id}).`, 'success');
  if (text !== undefined) ui.setInput?.(text);
}

/** `/fork`: from the current point. */
export async function forkCommand(host: ChatHost, ui: ChatUi): Promise<void> {
  if (messageTotal(host.conv.record) === 0) return ui.info('Nothing to fork yet: no message was sent in this session.', 'muted');
  await forkFrom(host, undefined, ui);
}
