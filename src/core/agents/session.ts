import type { Message } from '../schema/message.js';
import type { MessageStream } from '../schema/message-stream.js';
import { CancelledError, WillRetryError } from '../errors.js';

/** One message in the shared run history, as recorded by the agent that produced it. */
export interface RecordedEvent {
  agentName: string;
  runPath: string[];
  role: 'assistant' | 'tool' | 'user';
  toolName?: string | undefined;
  message?: Message | undefined;
  /** A message still streaming; materialized before a checkpoint is written. */
  stream?: MessageStream | undefined;
  transferTo?: string | undefined;
  /** Global creation order, used to merge parallel lanes. */
  seq: number;
}

let nextSeq = 0;
export const nextEventSeq = (): number => ++nextSeq;

/** Events restored from a checkpoint (maybe written by another process) stay ahead of new ones. */
function continueSeqAfter(events: RecordedEvent[]): void {
  for (const e of events) if (e.seq > nextSeq) nextSeq = e.seq;
}

interface Lane {
  parent?: Lane | undefined;
  events: RecordedEvent[];
}

/**
 * The state one run shares between its agents: values (`{Key}` placeholders, `outputKey`) and the
 * recorded history from which every agent's input is rebuilt. Parallel children get forked lanes.
 */
export class Session {
  constructor(
    readonly values: Record<string, unknown> = {},
    private readonly committed: RecordedEvent[] = [],
    private readonly lane?: Lane,
  ) {
    if (!lane) continueSeqAfter(committed);
  }

  record(e: RecordedEvent): void {
    (this.lane?.events ?? this.committed).push(e);
  }

  /** Committed history, then each enclosing lane from the outermost in. */
  events(): RecordedEvent[] {
    if (!this.lane) return this.committed;
    const lanes: Lane[] = [];
    for (let l: Lane | undefined = this.lane; l; l = l.parent) lanes.unshift(l);
    return [...this.committed, ...lanes.flatMap((l) => l.events)];
  }

  /** A child view for one parallel branch: sees committed history and its own lane only. */
  fork(seed: RecordedEvent[] = []): Session {
    continueSeqAfter(seed);
    return new Session(this.values, this.committed, { parent: this.lane, events: [...seed] });
  }

  laneEvents(): RecordedEvent[] {
    return this.lane?.events ?? [];
  }

  /** Merges the lanes of finished branches back in creation order. */
  join(children: Session[]): void {
    const merged = children.flatMap((c) => c.laneEvents()).sort((a, b) => a.seq - b.seq);
    for (const e of merged) this.record(e);
  }

  /** Waits for streamed messages, drops attempts that were retried, and returns plain records. */
  materialize(): Promise<RecordedEvent[]> {
    return materializeEvents(this.events());
  }

  /** The same for this branch's own lane only. */
  materializeLane(): Promise<RecordedEvent[]> {
    return materializeEvents(this.laneEvents());
  }
}

async function materializeEvents(events: RecordedEvent[]): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const e of events) {
    const m = await recordedMessage(e);
    if (!m) continue;
    const { stream: _stream, ...rest } = e;
    out.push({ ...rest, message: m });
  }
  return out;
}

/** The message of a recorded event, or undefined when its stream failed (a retried attempt). */
/**
 * The text a cancelled model call had streamed when it was stopped (the last such call of the run),
 * or undefined. A resume makes the call again; a new message after the cancel keeps this text as
 * the assistant's turn, so the model sees what the person saw.
 */
export function cancelledText(session: Session): { agentName: string; text: string } | undefined {
  const events = session.events();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (!e.stream) continue;
    if (!(e.stream.error instanceof CancelledError)) return undefined;
    const text = e.stream.snapshot().content;
    return text.trim() ? { agentName: e.agentName, text } : undefined;
  }
  return undefined;
}

export async function recordedMessage(e: RecordedEvent): Promise<Message | undefined> {
  if (e.message) return e.message;
  if (!e.stream) return undefined;
  try {
    return await e.stream.collect();
  } catch (err) {
    // A retried attempt, or a cancelled call that a resume makes again from its safe point.
    if (err instanceof WillRetryError || err instanceof CancelledError) return undefined;
    // A stream that failed for good still leaves what it produced in the history.
    return e.stream.snapshot();
  }
}
