import type { Message } from '../../core/schema/message.js';
import { costUsd, knownPrice, type ModelPrice } from '../../core/models/pricing.js';
import type { SessionRecord } from '../../core/store/index.js';

/**
 * A session as an ATIF trajectory (Agent Trajectory Interchange Format, Harbor's RFC 0001, v1.7): a
 * step per system, user and assistant message; an assistant step carries its tool calls and, as its
 * observation, the results that answered them. An agent run as a tool (a sub-agent, a deep agent's
 * task) is embedded as one of `subagent_trajectories`, its result pointing at it by `trajectory_id`.
 * Steps carry their tokens and, where the model's price is known, their cost.
 */
export const ATIF_VERSION = 'ATIF-v1.7';

interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}
interface AtifResult {
  source_call_id?: string;
  content?: string;
  subagent_trajectory_ref?: Array<{ trajectory_id: string; session_id?: string }>;
}
interface AtifStep {
  step_id: number;
  source: 'system' | 'user' | 'agent';
  message: string;
  model_name?: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: AtifResult[] };
  metrics?: { prompt_tokens?: number; completion_tokens?: number; cost_usd?: number };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id: string;
  trajectory_id: string;
  agent: { name: string; version: string; model_name?: string };
  steps: AtifStep[];
  notes?: string;
  final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_cost_usd?: number; total_steps: number };
  subagent_trajectories?: AtifTrajectory[];
  extra?: Record<string, unknown>;
}

/** Tool-call arguments as ATIF wants them (an object): JSON text parsed; anything else kept under `input`. */
function argumentsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { input: v };
  } catch {
    return { input: text };
  }
}

interface Context {
  sessionId: string;
  adkVersion: string;
  model: string | undefined;
  price: ModelPrice | undefined;
}

export function toAtif(record: SessionRecord, adkVersion: string): AtifTrajectory {
  const ctx: Context = { sessionId: record.id, adkVersion, model: record.model, price: record.model ? knownPrice(record.model) : undefined };
  // A turn stopped at an interrupt (a budget, an approval) keeps its messages aside until it ends: they are the run's work too.
  const t = trajectory([...record.messages, ...(record.pendingTurn ?? [])] as HistoryMessage[], record.id, 'adk', ctx);
  // The session's own totals (summaries and retries included), not only what the kept messages say.
  t.final_metrics.total_prompt_tokens = record.usage.promptTokens;
  t.final_metrics.total_completion_tokens = record.usage.completionTokens;
  if (ctx.price) t.final_metrics.total_cost_usd = costUsd(record.usage, ctx.price);
  t.extra = { title: record.title, root_agent: record.rootAgent, status: record.status, created_at: record.createdAt, updated_at: record.updatedAt };
  return t;
}

type HistoryMessage = Message & { agentName?: string };

/** One trajectory from a list of messages; the runs of agent tools in it become its subagent trajectories. */
function trajectory(messages: HistoryMessage[], id: string, agent: string, ctx: Context): AtifTrajectory {
  const steps: AtifStep[] = [];
  const subs: AtifTrajectory[] = [];
  // Which step asked for each call: its result becomes that step's observation.
  const askedBy = new Map<string, AtifStep>();
  let prompt = 0;
  let completion = 0;
  const pushSystem = (): AtifStep => {
    const step: AtifStep = { step_id: steps.length + 1, source: 'system', message: '' };
    steps.push(step);
    return step;
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      const step = m.toolCallId ? askedBy.get(m.toolCallId) : undefined;
      const result: AtifResult = { ...(m.toolCallId ? { source_call_id: m.toolCallId } : {}), content: m.content };
      if (m.subRun) {
        const sub = trajectory(m.subRun.messages as HistoryMessage[], `${id}/${m.toolCallId ?? subs.length + 1}`, m.subRun.agent, ctx);
        subs.push(sub);
        result.subagent_trajectory_ref = [{ trajectory_id: sub.trajectory_id, session_id: ctx.sessionId }];
      }
      // A result whose call is not in this record (summarised away): kept, on a system step of its own.
      const holder = step ?? (steps[steps.length - 1]?.source === 'system' ? steps[steps.length - 1]! : pushSystem());
      (holder.observation ??= { results: [] }).results.push(result);
      continue;
    }
    const step: AtifStep = { step_id: steps.length + 1, source: m.role === 'assistant' ? 'agent' : m.role === 'system' ? 'system' : 'user', message: m.content ?? '' };
    if (m.role === 'assistant') {
      if (ctx.model) step.model_name = ctx.model;
      if (m.reasoningContent) step.reasoning_content = m.reasoningContent;
      const calls = (m.toolCalls ?? []).map((c) => ({ tool_call_id: c.id, function_name: c.function.name, arguments: argumentsObject(c.function.arguments) }));
      if (calls.length) step.tool_calls = calls;
      for (const c of calls) askedBy.set(c.tool_call_id, step);
      if (m.usage) {
        step.metrics = { prompt_tokens: m.usage.promptTokens, completion_tokens: m.usage.completionTokens, ...(ctx.price ? { cost_usd: costUsd(m.usage, ctx.price) } : {}) };
        prompt += m.usage.promptTokens;
        completion += m.usage.completionTokens;
      }
      if (m.agentName) step.extra = { agent: m.agentName };
    }
    steps.push(step);
  }
  // ATIF wants at least one step: a run that left no message still says it ran.
  if (!steps.length) pushSystem();
  return {
    schema_version: ATIF_VERSION,
    session_id: ctx.sessionId,
    trajectory_id: id,
    agent: { name: agent, version: ctx.adkVersion, ...(ctx.model ? { model_name: ctx.model } : {}) },
    steps,
    final_metrics: { total_prompt_tokens: prompt, total_completion_tokens: completion, ...(ctx.price ? { total_cost_usd: costUsd({ promptTokens: prompt, completionTokens: completion }, ctx.price) } : {}), total_steps: steps.length },
    ...(subs.length ? { subagent_trajectories: subs } : {}),
  };
}

/** A session as Markdown: a heading per speaker, tool calls and results as code blocks. */
export function toMarkdown(record: SessionRecord): string {
  const out = [`# ${record.title || record.id}`, '', `session ${record.id} · ${record.rootAgent}${record.model ? ` (${record.model})` : ''} · ${record.status}`, ''];
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((x) => x[0].length + 1)));
    return `${ticks}\n${text}\n${ticks}`;
  };
  for (const m of [...record.messages, ...(record.pendingTurn ?? [])] as Array<Message & { agentName?: string }>) {
    if (m.role === 'tool') {
      out.push(`**${m.toolName ?? 'tool'} result**`, '', fence(m.content), '');
      continue;
    }
    out.push(`## ${m.role === 'assistant' ? (m.agentName ?? 'assistant') : m.role}`, '');
    if (m.content) out.push(m.content, '');
    for (const c of m.toolCalls ?? []) out.push(`**${c.function.name}**`, '', fence(c.function.arguments), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
