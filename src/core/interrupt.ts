import { randomUUID } from 'node:crypto';
import { ConfigError } from './errors.js';

/** Structural position of an interrupt point: `agent:root;agent:coder;tool:shell:call_1`. */
export interface AddressSegment {
  type: 'agent' | 'tool';
  id: string;
  subId?: string | undefined;
}

/** The address in its string form, segments `type:id[:subId]` joined by `;`. */
export function addressToString(address: readonly AddressSegment[]): string {
  return address.map((s) => (s.subId ? `${s.type}:${s.id}:${s.subId}` : `${s.type}:${s.id}`)).join(';');
}

/**
 * `composite`: an agent or tool whose own sub-points interrupted (it carries them as `subs`). `budget`:
 * a run's budget is reached; resumed with `{ raise: { max_cost: 5 } }` it goes on.
 */
export type InterruptKind = 'approval' | 'input' | 'plan_review' | 'budget' | 'custom' | 'composite';

/** What a person is asked. Built-in kinds fill the matching fields; `custom` may carry anything in `data`. */
export interface InterruptDetails {
  kind: InterruptKind;
  message: string;
  tool?: string | undefined;
  arguments?: unknown | undefined;
  /** For approval: the call being approved (ids are adk's own, unique in the run). */
  callId?: string | undefined;
  /** For approval: the call started before adk stopped, so it may have done its work already. */
  mayHaveRun?: true | undefined;
  /**
   * For approval: this tool asks before every call here, whatever the session's grants and allow rules
   * say (shell without its sandbox). A face must never answer it from a grant, nor offer "always allow".
   */
  alwaysAsks?: true | undefined;
  /** For approval: what the call would change, as a unified diff (tools with a `preview`). */
  diff?: string | undefined;
  /** For plan_review: the proposed steps. */
  plan?: string[] | undefined;
  /** For budget: which budget (`max_cost`, …), what was spent and its limit. */
  budget?: { name: string; spent: number; limit: number; agent?: string | undefined } | undefined;
  data?: unknown | undefined;
}

/** Internal tree of interrupt signals: each layer wraps its children's signals with its own state. */
export interface InterruptSignal {
  id: string;
  address: string;
  info: unknown;
  state?: unknown | undefined;
  isRootCause: boolean;
  subs: InterruptSignal[];
  /** The point where a cancelled run stopped: resumed without data, it simply continues. */
  cancelled?: true | undefined;
}

/** A root-cause interrupt point, as users see it. Resume data is addressed to its `id`. */
export interface InterruptContext {
  id: string;
  address: string;
  info: unknown;
  parent?: { id: string; address: string; info: unknown } | undefined;
  /** A cancellation point: nothing to answer, resuming continues the run. */
  cancelled?: true | undefined;
}

/** The action of an event that stops the run to wait for a person (or because it was cancelled). */
export interface InterruptAction {
  /** The root causes: the points that need an answer. */
  contexts: InterruptContext[];
  /** The full signal tree, persisted in the checkpoint. */
  signal: InterruptSignal;
  /** The run was cancelled (SIGINT, aborted signal) and saved at its last safe point. */
  cancelled?: true | undefined;
  /** Eino's `InterruptInfo.Data`: what an agent that interrupted in Eino's Go form gave (see `GoInterruptInfo`). */
  data?: unknown;
}

/**
 * Eino's Go form of an interrupt, `AgentAction{Interrupted: &InterruptInfo{Data: …}}`: only `data`, no
 * signal. A custom agent may send `{ action: { interrupted: { data } } }`; the Runner makes it an
 * interrupt point of that agent (see `toInterruptAction`). adk's own form is `interruptAction(makeSignal(ctx.address, info, state))`.
 */
export interface GoInterruptInfo {
  data?: unknown;
}

/**
 * An interrupt action in adk's form. One in Eino's Go form (`{ data }`) becomes a root-cause point at
 * `address` (the agent that sent it) whose info is `data`, so `RunResult.interrupts`, the checkpoint
 * and `Runner.resume` work as for adk's form; its state is `data` too, so the agent's `resume` gets
 * it back (`info.state`), as Eino hands the InterruptInfo back to the agent that interrupted.
 */
export function toInterruptAction(action: InterruptAction | GoInterruptInfo, address: readonly AddressSegment[]): InterruptAction {
  if ((action as Partial<InterruptAction>).signal) return action as InterruptAction;
  // A porter's `{ Data }` (Go's field name) would interrupt with nothing in it: said instead.
  const unknown = Object.keys(action ?? {}).filter((k) => k !== 'data');
  if (unknown.length) {
    const hint = unknown.map((k) => (k.toLowerCase() === 'data' ? `'${k}' (did you mean 'data'?)` : `'${k}'`)).join(', ');
    throw new ConfigError(`an interrupt of agent ${addressToString(address) || '(root)'} has ${hint}: adk reads Eino's Go form as { interrupted: { data } }, or its own as interruptAction(makeSignal(ctx.address, info, state))`);
  }
  const data = (action as GoInterruptInfo).data;
  const adk = interruptAction(makeSignal(address, data, data));
  if (data !== undefined) adk.data = data;
  return adk;
}

/** What a cancellation point shows; it is resumable without data. */
export const CANCELLED_INFO: InterruptDetails = { kind: 'custom', message: 'cancelled' };

/** `id` is reused when a point interrupts again on resume, so its id stays stable for the user. */
export function makeSignal(
  address: readonly AddressSegment[],
  info: unknown,
  state?: unknown,
  subs: InterruptSignal[] = [],
  id: string = randomUUID(),
): InterruptSignal {
  return { id, address: addressToString(address), info, state, isRootCause: subs.length === 0, subs };
}

/** The leaves of a signal tree as users see them, each with its direct parent when it has one. */
export function rootCauses(signal: InterruptSignal, parent?: InterruptSignal): InterruptContext[] {
  if (signal.isRootCause) {
    const ctx: InterruptContext = { id: signal.id, address: signal.address, info: signal.info };
    if (parent) ctx.parent = { id: parent.id, address: parent.address, info: parent.info };
    if (signal.cancelled) ctx.cancelled = true;
    return [ctx];
  }
  return signal.subs.flatMap((s) => rootCauses(s, signal));
}

/** The cancellation marker is derived from the tree, so it survives wrapping by outer layers. */
export function interruptAction(signal: InterruptSignal): InterruptAction {
  const action: InterruptAction = { contexts: rootCauses(signal), signal };
  if (isCancelled(signal)) action.cancelled = true;
  return action;
}

/** True when any point of the signal tree is a cancellation point. */
export function isCancelled(signal: InterruptSignal): boolean {
  return !!signal.cancelled || signal.subs.some(isCancelled);
}

/** Every point of a signal tree, flattened for persistence. */
export function flattenSignal(signal: InterruptSignal, out: Record<string, PersistedPoint> = {}): Record<string, PersistedPoint> {
  out[signal.id] = { address: signal.address, info: signal.info, state: signal.state, isRootCause: signal.isRootCause };
  if (signal.cancelled) out[signal.id].cancelled = true;
  for (const s of signal.subs) flattenSignal(s, out);
  return out;
}

/** One interrupt point as a checkpoint stores it (under its id in `interrupts`); on resume each layer finds its own by address. */
export interface PersistedPoint {
  address: string;
  info: unknown;
  state?: unknown | undefined;
  isRootCause: boolean;
  cancelled?: true | undefined;
}

/** What one layer learns about itself when a run is resumed. */
export interface ResumeInfo {
  /** The id this point had when it interrupted. */
  id?: string | undefined;
  /** This exact address was an interrupt point. */
  wasInterrupted: boolean;
  /** The state it saved when it interrupted. */
  state?: unknown | undefined;
  /** It was targeted, or (for composites) something below it was interrupted. */
  isResumeTarget: boolean;
  hasData: boolean;
  data?: unknown | undefined;
}

const NOT_RESUMING: ResumeInfo = { wasInterrupted: false, isResumeTarget: false, hasData: false };

/** Resume data for a whole run, consulted by every layer with its own address. */
export class ResumeContext {
  private byAddress = new Map<string, { id: string; point: PersistedPoint }>();

  constructor(
    points: Record<string, PersistedPoint>,
    private readonly targets: Record<string, unknown> = {},
  ) {
    for (const [id, point] of Object.entries(points)) this.byAddress.set(point.address, { id, point });
  }

  /** Whether any interrupt point sits at or below `address`. */
  leadsTo(address: readonly AddressSegment[]): boolean {
    const a = addressToString(address);
    for (const key of this.byAddress.keys()) if (key === a || key.startsWith(a + ';')) return true;
    return false;
  }

  /** This layer's resume info. Its own point is consumed, so a later run at the same address starts fresh. */
  take(address: readonly AddressSegment[]): ResumeInfo {
    const a = addressToString(address);
    const own = this.byAddress.get(a);
    this.byAddress.delete(a);
    const below = [...this.byAddress.keys()].some((k) => k.startsWith(a + ';'));
    if (!own) return below ? { ...NOT_RESUMING, isResumeTarget: true } : NOT_RESUMING;
    const targeted = Object.prototype.hasOwnProperty.call(this.targets, own.id);
    const data = targeted ? this.targets[own.id] : undefined;
    return {
      id: own.id,
      wasInterrupted: true,
      state: own.point.state,
      isResumeTarget: targeted || below,
      hasData: targeted && data !== undefined,
      data,
    };
  }
}
