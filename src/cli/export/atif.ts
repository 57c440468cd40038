import type { Message } from '../../core/schema/message.js';
import type { SessionRecord } from '../../core/store/index.js';

/**
 * A session as an ATIF trajectory (Agent Trajectory Interchange Format, Harbor's RFC 0001, v1.4: the
 * version Terminal-Bench's leaderboard reads): a step per system, user and assistant message; an
 * assistant step carries its tool calls and, as its observation, the results that answered them.
 */
export const ATIF_VERSION = 'ATIF-v1.4';

interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}
interface AtifStep {
  step_id: number;
  source: 'system' | 'user' | 'agent';
  message: string;
  model_name?: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: Array<{ source_call_id?: string; content?: string }> };
  metrics?: { prompt_tokens?: number; completion_tokens?: number };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name?: string };
  steps: AtifStep[];
  notes?: string;
  final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_steps: number };
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

export function toAtif(record: SessionRecord, adkVersion: string): AtifTrajectory {
  const messages = record.messages as Array<Message & { agentName?: string }>;
  const steps: AtifStep[] = [];
  // Which step asked for each call: its result becomes that step's observation.
  const askedBy = new Map<string, AtifStep>();
  const pushSystem = (): AtifStep => {
    const step: AtifStep = { step_id: steps.length + 1, source: 'system', message: '' };
    steps.push(step);
    return step;
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      const step = m.toolCallId ? askedBy.get(m.toolCallId) : undefined;
      const result = { ...(m.toolCallId ? { source_call_id: m.toolCallId } : {}), content: m.content };
      // A result whose call is not in this record (summarised away): kept, on a system step of its own.
      const holder = step ?? steps[steps.length - 1]?.source === 'system' ? (step ?? steps[steps.length - 1]!) : pushSystem();
      (holder.observation ??= { results: [] }).results.push(result);
      continue;
    }
    const step: AtifStep = { step_id: steps.length + 1, source: m.role === 'assistant' ? 'agent' : m.role === 'system' ? 'system' : 'user', message: m.content ?? '' };
    if (m.role === 'assistant') {
      if (record.model) step.model_name = record.model;
      if (m.reasoningContent) step.reasoning_content = m.reasoningContent;
      const calls = (m.toolCalls ?? []).map((c) => ({ tool_call_id: c.id, function_name: c.function.name, arguments: argumentsObject(c.function.arguments) }));
      if (calls.length) step.tool_calls = calls;
      for (const c of calls) askedBy.set(c.tool_call_id, step);
      if (m.usage) step.metrics = { prompt_tokens: m.usage.promptTokens, completion_tokens: m.usage.completionTokens };
      if (m.agentName) step.extra = { agent: m.agentName };
    }
    steps.push(step);
  }
  return {
    schema_version: ATIF_VERSION,
    session_id: record.id,
    agent: { name: 'adk', version: adkVersion, ...(record.model ? { model_name: record.model } : {}) },
    steps,
    final_metrics: { total_prompt_tokens: record.usage.promptTokens, total_completion_tokens: record.usage.completionTokens, total_steps: steps.length },
    extra: { title: record.title, root_agent: record.rootAgent, status: record.status, created_at: record.createdAt, updated_at: record.updatedAt },
  };
}

/** A session as Markdown: a heading per speaker, tool calls and results as code blocks. */
export function toMarkdown(record: SessionRecord): string {
  const out = [`# ${record.title || record.id}`, '', `session ${record.id} · ${record.rootAgent}${record.model ? ` (${record.model})` : ''} · ${record.status}`, ''];
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((x) => x[0].length + 1)));
    return `${ticks}\n${text}\n${ticks}`;
  };
  for (const m of record.messages as Array<Message & { agentName?: string }>) {
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
