import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenAITestServer, RecordedRequest, ServerReply } from '../support/openai-server.js';
import { systemOf, toolMessagesOf } from '../cli/helpers.js';

export const BUNDLED_AGENTS = fileURLToPath(new URL('../../agents.yaml', import.meta.url));

/**
 * For each chat agent of the bundled file, a line of its instruction without `{placeholders}`:
 * the server tells which agent is calling by finding that line in the system prompt, so the
 * tests keep working when the instructions are reworded.
 */
export function instructionMarkers(file = BUNDLED_AGENTS): Map<string, string> {
  const doc = parse(readFileSync(file, 'utf8')) as { agents: Record<string, { type?: string; instruction?: string }> };
  const out = new Map<string, string>();
  for (const [name, a] of Object.entries(doc.agents)) {
    if ((a.type ?? 'chat') !== 'chat' || !a.instruction) continue;
    const line = a.instruction
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 12 && !l.includes('{'));
    if (line) out.set(name, line);
  }
  return out;
}

export interface AgentTurn {
  agent: string;
  request: RecordedRequest;
  /** How many tool results of its own this agent has seen in this request. */
  ownToolResults: number;
}

export type AgentScript = Record<string, (turn: AgentTurn) => ServerReply>;

/**
 * Answers every chat request by the agent that sent it; records who called, in order.
 * A request from an agent without a script gets a 500, which fails the run visibly.
 */
export function scriptTeam(server: OpenAITestServer, script: AgentScript): { calls: string[]; requestsBy: (agent: string) => RecordedRequest[] } {
  const markers = instructionMarkers();
  const calls: string[] = [];
  const byAgent = new Map<string, RecordedRequest[]>();
  server.onRequest((request) => {
    const system = systemOf(request);
    const hits = [...markers].filter(([, line]) => system.includes(line)).map(([name]) => name);
    if (hits.length !== 1) return { status: 500, errorMessage: `test script: cannot tell the agent (matches: ${hits.join(', ') || 'none'})` };
    const agent = hits[0];
    calls.push(agent);
    byAgent.set(agent, [...(byAgent.get(agent) ?? []), request]);
    const reply = script[agent];
    if (!reply) return { status: 500, errorMessage: `test script: no reply for ${agent}` };
    return reply({ agent, request, ownToolResults: toolMessagesOf(request).length });
  });
  return { calls, requestsBy: (agent) => byAgent.get(agent) ?? [] };
}

/** The agent names of the model's messages and tool calls in a run's JSONL, in order, without repeats in a row. */
export function speakers(lines: any[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (l?.type !== 'message' && l?.type !== 'tool_call') continue;
    if (out.at(-1) !== l.agent) out.push(l.agent);
  }
  return out;
}
