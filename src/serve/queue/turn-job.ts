import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PendingInterrupt } from '../../core/store/session-record.js';
import type { TurnStep } from '../served-session.js';

/** The BullMQ queue turns wait in. */
export const TURN_QUEUE = 'adk-turns';

/**
 * An interrupt a queued step answers, as the server read it from the session when it queued the
 * answers: the worker runs them only while the session waits on exactly these.
 */
export interface AnsweredInterrupt {
  id: string;
  kind: string;
  tool?: string | undefined;
  arguments?: unknown;
  mayHaveRun?: boolean | undefined;
}

/** One queued turn (or continuation after interrupts) of one session, as the server signs it. */
export interface TurnJobBody {
  sessionId: string;
  /** The job id too: a session holds one turn at a time, by this id. */
  turnId: string;
  step: TurnStep;
  /** The session's claim in Redis (`<turnId>@<ms>`): the turn's `done` frees it. */
  claim: string;
  /** With answers (`targets`): the interrupts they answer (see AnsweredInterrupt). */
  answered?: AnsweredInterrupt[] | undefined;
  /**
   * The session's last turn when this job was made ('' for none): a worker runs the job only while
   * that is still the session's last turn, so a copy of an old signed job cannot be queued again.
   */
  after: string;
}

/** A queued turn: its body and the body's HMAC-SHA256 (hex) with the queue key. */
export interface TurnJob extends TurnJobBody {
  sig: string;
}

/** What the MAC covers besides the body: a signature made for anything else never fits a job. */
const SIGNED_AS = 'adk-turn-job/1\n';

/**
 * JSON with every object's keys sorted and `undefined` members left out, so a body signs the same
 * before and after it is stored (BullMQ keeps `JSON.stringify(data)`) whatever its key order.
 */
export function canonicalJson(value: unknown): string {
  return stringify(JSON.parse(JSON.stringify(value ?? null)) as unknown);
}

function stringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stringify).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stringify(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function mac(body: unknown, key: Uint8Array): Buffer {
  return createHmac('sha256', key).update(SIGNED_AS).update(canonicalJson(body)).digest();
}

/** The job for `body`, signed with the queue key. */
export function signTurnJob(body: TurnJobBody, key: Uint8Array): TurnJob {
  const { sig: _ignored, ...rest } = body as TurnJobBody & { sig?: unknown };
  return { ...rest, sig: mac(rest, key).toString('hex') };
}

/**
 * Whether `data` is a job signed with `key`: its `sig` is the MAC of everything else in it (a field
 * added, dropped or changed fails), compared in constant time; then that it has a job's shape.
 */
export function verifyTurnJob(data: unknown, key: Uint8Array): data is TurnJob {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return false;
  const { sig, ...body } = data as Record<string, unknown>;
  if (typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return false;
  if (!timingSafeEqual(Buffer.from(sig, 'hex'), mac(body, key))) return false;
  const step = body.step as Record<string, unknown> | undefined;
  return (
    typeof body.sessionId === 'string' &&
    typeof body.turnId === 'string' &&
    typeof body.claim === 'string' &&
    typeof body.after === 'string' &&
    !!step &&
    typeof step === 'object' &&
    (typeof step.content === 'string' || (!!step.targets && typeof step.targets === 'object')) &&
    (step.rewindTo === undefined || (Number.isInteger(step.rewindTo) && (step.rewindTo as number) >= 0))
  );
}

/** What must be the same in the interrupt answered and the one pending. */
function described(p: AnsweredInterrupt | PendingInterrupt): string {
  return canonicalJson({ kind: p.kind, tool: p.tool, arguments: p.arguments, mayHaveRun: p.mayHaveRun === true });
}

/** The interrupts `targets` answers, read from the session's pending ones (to sign into the job). */
export function answeredInterrupts(pending: readonly PendingInterrupt[], targets: Record<string, unknown>): AnsweredInterrupt[] {
  const out: AnsweredInterrupt[] = [];
  for (const id of Object.keys(targets)) {
    const p = pending.find((x) => x.id === id);
    if (p) out.push({ id: p.id, kind: p.kind, tool: p.tool, arguments: p.arguments, mayHaveRun: p.mayHaveRun === true });
  }
  return out;
}

/**
 * Why a queued step's answers must not run against the session as it is now (undefined: they may).
 * Every answer must name an interrupt the session waits on, by its whole id, with the same kind,
 * tool and arguments as when the answers were queued; every "always allow" must be the tool of an
 * approval the step approves. A new message answers nothing and passes.
 */
export function answersProblem(pending: readonly PendingInterrupt[], job: Pick<TurnJobBody, 'step' | 'answered'>): string | undefined {
  const step = job.step as { content?: unknown; targets?: unknown; grants?: unknown };
  if (!('targets' in step)) return undefined;
  const targets = step.targets;
  if (!targets || typeof targets !== 'object' || Array.isArray(targets)) return 'its answers are not an object of {interruptId: answer}';
  const answered = job.answered ?? [];
  for (const id of Object.keys(targets)) {
    const now = pending.find((p) => p.id === id);
    if (!now) return `interrupt ${JSON.stringify(id)} is not pending in the session`;
    const then = answered.find((a) => a.id === id);
    if (!then) return `interrupt ${JSON.stringify(id)} is answered without the call it answers`;
    if (described(then) !== described(now)) return `interrupt ${JSON.stringify(id)} is not the call that was answered (its tool or arguments differ)`;
  }
  const grants = step.grants ?? [];
  if (!Array.isArray(grants)) return 'its "always allow" grants are not a list';
  for (const tool of grants) {
    const approves = pending.some((p) => p.kind === 'approval' && p.tool === tool && isApproval((targets as Record<string, unknown>)[p.id]));
    if (!approves) return `"always allow" ${JSON.stringify(tool)} goes with no approval of that tool in these answers`;
  }
  return undefined;
}

function isApproval(answer: unknown): boolean {
  return !!answer && typeof answer === 'object' && (answer as { approved?: unknown }).approved === true;
}
