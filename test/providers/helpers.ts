import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import type { ChatModel } from '../../src/core/models/chat-model.js';
import { Runner } from '../../src/core/runner.js';
import type { Message } from '../../src/core/schema/message.js';
import type { Tool } from '../../src/core/tools/tool.js';

/** One raw Chat Completions chunk, as a server would send it. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'chatcmpl-rec', object: 'chat.completion.chunk', created: 0, model: 'rec', choices: [{ index: 0, delta, finish_reason: finish }], ...extra };
}

/** SSE events for a verbatim reply: each object as one `data:` event, then `[DONE]`. */
export function sseOf(...events: Array<Record<string, unknown> | string>): string[] {
  return [...events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`), 'data: [DONE]\n\n'];
}

export interface ToolRun {
  name: string;
  args: unknown;
  callId: string;
}

/** `current_time` and `read_file`, as in the replays; each run is recorded. */
export function replayTools(runs: ToolRun[]): Tool[] {
  return [
    {
      name: 'current_time',
      description: 'The current time.',
      parameters: { type: 'object', properties: {} },
      execute: (args, ctx) => {
        runs.push({ name: 'current_time', args, callId: ctx.callId });
        return '2026-11-24T04:00:00Z';
      },
    },
    {
      name: 'read_file',
      description: 'Reads a file.',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      execute: (args: { path: string }, ctx) => {
        runs.push({ name: 'read_file', args, callId: ctx.callId });
        return `contents of ${args.path}`;
      },
    },
  ];
}

export interface Replay {
  events: AgentEvent[];
  runs: ToolRun[];
  /** Every finished message of the run, in order. */
  messages: Message[];
  errors: Error[];
  output: string;
}

/** Runs a one-agent team with the replay tools to the end, streaming unless told otherwise. */
export async function replay(model: ChatModel, prompt = 'What time is it, and what is in notes.txt?', streaming = true): Promise<Replay> {
  const runs: ToolRun[] = [];
  const agent = new ChatModelAgent({ name: 'Assistant', description: 'replay', model, tools: replayTools(runs), retry: { maxRetries: 1, baseDelayMs: 1 } });
  const events: AgentEvent[] = [];
  const messages: Message[] = [];
  const errors: Error[] = [];
  for await (const e of new Runner({ agent, enableStreaming: streaming }).query(prompt)) {
    events.push(e);
    const v = e.output?.message;
    if (v) {
      const m = v.stream ? await v.stream.collect().catch(() => undefined) : v.message;
      if (m) messages.push(m);
    }
    if (e.error) errors.push(e.error);
  }
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  return { events, runs, messages, errors, output: last?.content ?? '' };
}
