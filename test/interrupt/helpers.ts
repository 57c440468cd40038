import { vi } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import type { InterruptAction } from '../../src/core/interrupt.js';
import type { Message } from '../../src/core/schema/message.js';
import type { Tool, ToolContext } from '../../src/core/tools/tool.js';

/**
 * A fresh copy of the runtime modules, as a new process would load them: module-level state
 * (event sequence numbers, flow wrappers) starts over, and nothing is shared with the first run
 * but the checkpoint text.
 */
export async function loadRuntime() {
  vi.resetModules();
  const [runner, agent, workflow, scripted, checkpoint, checkpointStore, errors] = await Promise.all([
    import('../../src/core/runner.js'),
    import('../../src/core/agents/chat-model-agent.js'),
    import('../../src/core/agents/workflow.js'),
    import('../../src/core/models/scripted.js'),
    import('../../src/core/checkpoint.js'),
    import('../../src/core/store/checkpoint-store.js'),
    import('../../src/core/errors.js'),
  ]);
  return { ...runner, ...agent, ...workflow, ...scripted, ...checkpoint, ...checkpointStore, ...errors };
}

export type Runtime = Awaited<ReturnType<typeof loadRuntime>>;

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** The run's interrupt action; fails the test when there is not exactly one. */
export function interruptOf(events: AgentEvent[]): InterruptAction {
  const found = events.filter((e) => e.action?.interrupted);
  if (found.length !== 1) throw new Error(`expected one interrupt event, got ${found.length}: ${summarize(events)}`);
  return found[0].action!.interrupted!;
}

export function errorsOf(events: AgentEvent[]): Error[] {
  return events.filter((e) => e.error).map((e) => e.error!);
}

/** The stored checkpoint, copied through JSON into a brand-new store, as another process would read it. */
export function carryCheckpoint(from: { data: Map<string, string> }, id: string, to: Runtime): InstanceType<Runtime['InMemoryCheckpointStore']> {
  const text = from.data.get(id);
  if (text === undefined) throw new Error(`no checkpoint ${id} was saved`);
  const store = new to.InMemoryCheckpointStore();
  store.data.set(id, JSON.stringify(JSON.parse(text)));
  return store;
}

export function checkpointJson(store: { data: Map<string, string> }, id: string): any {
  return JSON.parse(store.data.get(id)!);
}

/** Messages of finished (non-streaming) or streamed message events, in order. */
export async function messagesOf(events: AgentEvent[]): Promise<Message[]> {
  const out: Message[] = [];
  for (const e of events) {
    const v = e.output?.message;
    if (!v) continue;
    const m = v.message ?? (await v.stream!.collect().catch(() => v.stream!.snapshot()));
    out.push(m);
  }
  return out;
}

export function summarize(events: AgentEvent[]): string {
  return JSON.stringify(
    events.map((e) => ({
      agent: e.agentName,
      runPath: e.runPath,
      role: e.output?.message?.role,
      content: e.output?.message?.message?.content,
      interrupted: e.action?.interrupted?.contexts.map((c) => c.address),
      error: e.error?.message,
    })),
  );
}

const noArgs = { type: 'object', properties: {}, additionalProperties: true };

/** A tool that counts its executions and answers `<name> ran`. */
export function countingTool(name: string, counts: Record<string, number>, opts: { delayMs?: number } = {}): Tool {
  return {
    name,
    description: `counts how often ${name} runs`,
    parameters: noArgs,
    async execute(args: unknown, ctx: ToolContext) {
      if (opts.delayMs) await sleepUnlessAborted(opts.delayMs, ctx.signal);
      counts[name] = (counts[name] ?? 0) + 1;
      return `${name} ran with ${JSON.stringify(args)}`;
    },
  };
}

/**
 * A tool that asks a person: it interrupts with `kind` and `state` unless it is the resume target
 * with data, in which case it answers with that data and the state it saved.
 */
export function askingTool(
  name: string,
  kind: 'custom' | 'input',
  log: Array<{ call: string; resume: ToolContext['resume'] }>,
  state: (callId: string) => unknown = (id) => ({ step: 'waiting', callId: id }),
): Tool {
  return {
    name,
    description: `asks a person (${kind})`,
    parameters: noArgs,
    execute(_args: unknown, ctx: ToolContext) {
      log.push({ call: ctx.callId, resume: ctx.resume });
      if (ctx.resume.isResumeTarget && ctx.resume.hasData) {
        return `answer for ${ctx.callId}: ${JSON.stringify(ctx.resume.data)} (state ${JSON.stringify(ctx.resume.state)})`;
      }
      // Not targeted: interrupt again, with the same state.
      return ctx.interrupt({ kind, message: `${name} needs a person` }, ctx.resume.wasInterrupted ? ctx.resume.state : state(ctx.callId));
    },
  };
}

function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('aborted'))), { once: true });
  });
}

/** Tool messages the model was sent in call `n` of a scripted model. */
export function toolMessagesSent(model: { calls: Array<{ messages: Message[] }> }, n: number): Message[] {
  return model.calls[n].messages.filter((m) => m.role === 'tool');
}
