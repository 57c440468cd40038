import { eventMessage, type Agent, type AgentEvent } from '../../src/core/agents/types.js';
import { ChatModelAgent, type ChatModelAgentConfig } from '../../src/core/agents/chat-model-agent.js';
import { ScriptedChatModel, type ScriptStep } from '../../src/core/models/scripted.js';
import type { Message } from '../../src/core/schema/message.js';

export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/**
 * One line per event: `agent [run>path] role[:tool] [calls=…] [“text”] [-> action]`, so a whole
 * sequence can be compared exactly and a failure shows where it went wrong.
 */
export async function describeEvent(e: AgentEvent): Promise<string> {
  let s = `${e.agentName} [${e.runPath.join('>')}]`;
  if (e.error) return `${s} error: ${e.error.message}`;
  const v = e.output?.message;
  if (v) {
    s += ` ${v.role}${v.toolName ? `:${v.toolName}` : ''}`;
    const m = await eventMessage(e);
    const calls = m?.toolCalls?.map((c) => c.function.name) ?? [];
    if (calls.length) s += ` calls=${calls.join(',')}`;
    if (m?.content) s += ` "${m.content}"`;
  }
  if (e.output && 'structured' in e.output) s += ` structured=${JSON.stringify(e.output.structured)}`;
  const a = e.action;
  if (a?.transferToAgent) s += ` -> transfer:${a.transferToAgent.destAgentName}`;
  if (a?.exit) s += ' -> exit';
  if (a?.breakLoop) s += ` -> break:${a.breakLoop.from}:${a.breakLoop.done ? 'done' : 'open'}@${a.breakLoop.currentIterations}`;
  if (a?.interrupted) s += ' -> interrupted';
  return s;
}

export const describeAll = (events: AgentEvent[]): Promise<string[]> => Promise.all(events.map(describeEvent));

export function chatAgent(name: string, script: ScriptStep[] | ((...a: Parameters<Extract<ScriptStep, Function>>) => ReturnType<Extract<ScriptStep, Function>>), extra: Partial<ChatModelAgentConfig> = {}): { agent: ChatModelAgent; model: ScriptedChatModel } {
  const model = new ScriptedChatModel(script);
  const agent = new ChatModelAgent({ name, description: `${name} description`, model, ...extra });
  return { agent, model };
}

export const transferTo = (agent: string, id?: string) => ({ toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: agent }, id }] });

/** `[role, content]` pairs, the shape most history assertions need. */
export const roles = (messages: Message[]): Array<[string, string]> => messages.map((m) => [m.role, m.content]);

/** A custom agent from a function that emits events. */
export function scriptedAgent(name: string, run: (emit: (e: AgentEvent) => void) => void | Promise<void>, extra: Partial<Agent> = {}): Agent {
  return {
    name,
    description: `${name} description`,
    ...extra,
    async *run() {
      const out: AgentEvent[] = [];
      await run((e) => out.push(e));
      yield* out;
    },
  };
}
