import type { ModelCallInfo, RunCallbacks } from '../callbacks.js';
import type { Message, Usage } from '../schema/message.js';

/**
 * Usage is counted where every model request passes, whoever makes it (issue 32, item 4): the run's
 * callbacks. A root agent's replies also reach the caller as message events (with their usage); the
 * requests of sub-agents behind an agent tool and of context summaries do not. The Runner adds a
 * meter to every run's callbacks and yields one `usage` event per request, so the run's total, the
 * JSONL `done` line, the session and `/cost` (per model) count them all.
 */
export interface UsageEvent {
  type: 'usage';
  model: string;
  agent: string;
  promptTokens: number;
  completionTokens: number;
  estimated?: boolean;
  /** The reply was not a message event of the run (a sub-agent's, a summary's, a failed attempt's): only this event counts it. */
  nested?: boolean;
}

export function isUsageEvent(x: unknown): x is UsageEvent {
  return typeof x === 'object' && x !== null && (x as { type?: unknown }).type === 'usage' && typeof (x as { model?: unknown }).model === 'string';
}

/** Model calls whose replies the caller never sees as events carry this mark on their call info. */
type NestedInfo = ModelCallInfo & { nested?: boolean };

/**
 * Callbacks for a run nested inside a tool (an agent tool): only its finished model requests reach
 * the caller's callbacks, marked as nested, so their usage counts (tracing keeps the shape it had:
 * an observer that saw no start ignores the end).
 */
export function nestedCallbacks(parent: RunCallbacks | undefined): RunCallbacks | undefined {
  if (!parent?.onModelEnd) return undefined;
  return {
    onModelEnd: (info: ModelCallInfo, reply: Message) => parent.onModelEnd!({ ...info, nested: true } as NestedInfo, reply),
    onModelError: (info: ModelCallInfo, error: Error) => parent.onModelError?.({ ...info, nested: true } as NestedInfo, error),
  };
}

/** Collects a run's usage from its callbacks; the Runner drains it between events. */
export class UsageMeter {
  private pending: UsageEvent[] = [];

  readonly callbacks: RunCallbacks = {
    onModelEnd: (info: NestedInfo, reply: Message) => {
      if (reply.usage) this.add(info, reply.usage, !!info.nested);
    },
    // A failed attempt (retried, or the run's last) is no message of the run: only this event counts it.
    onModelError: (info: NestedInfo) => {
      if (info.usage) this.add(info, info.usage, true);
    },
  };

  private add(info: ModelCallInfo, u: Usage, nested: boolean): void {
    this.pending.push({
      type: 'usage',
      model: info.model,
      agent: info.agentName,
      promptTokens: u.promptTokens,
      completionTokens: u.completionTokens,
      ...(u.estimated ? { estimated: true } : {}),
      ...(nested ? { nested: true } : {}),
    });
  }

  drain(): UsageEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/** A model request made outside an agent's step (a summary): reported to the run's callbacks like any other. */
export function reportModelCall(callbacks: RunCallbacks | undefined, info: Omit<ModelCallInfo, 'attempt'>, reply: Message): void {
  if (!callbacks?.onModelEnd) return;
  try {
    callbacks.onModelEnd({ ...info, attempt: 1, nested: true } as NestedInfo, reply);
  } catch {
    // Observers observe.
  }
}

export type UsageByModel = Record<string, { promptTokens: number; completionTokens: number }>;

/** Adds one usage event to per-model totals (a new object). */
export function addByModel(by: UsageByModel, u: Pick<UsageEvent, 'model' | 'promptTokens' | 'completionTokens'>): UsageByModel {
  const was = by[u.model] ?? { promptTokens: 0, completionTokens: 0 };
  return { ...by, [u.model]: { promptTokens: was.promptTokens + u.promptTokens, completionTokens: was.completionTokens + u.completionTokens } };
}
