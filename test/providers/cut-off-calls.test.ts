import { existsSync, mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { IncompleteReplyError } from '../../src/core/errors.js';
import { AnthropicChatModel } from '../../src/core/models/anthropic.js';
import type { ChatModel } from '../../src/core/models/chat-model.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES } from '../../src/core/models/providers.js';
import { Runner } from '../../src/core/runner.js';
import { RunStatusTracker } from '../../src/core/run-status.js';
import { userMessage, type Message } from '../../src/core/schema/message.js';
import { toOpenAIMessages } from '../../src/core/models/openai-messages.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { useAnthropicServer, type AnthropicTestServer } from '../support/anthropic-server.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { chunk, sseOf } from './helpers.js';

// Issue 35, item 1: a tool call whose arguments were cut off by the token limit never runs.
let anthropic: AnthropicTestServer;
useAnthropicServer((s) => (anthropic = s));
let openai: OpenAITestServer;
beforeAll(async () => (openai = await startOpenAIServer()));
afterAll(() => openai.close());
beforeEach(() => openai.reset());

/** A write_file that really writes, into `dir`. */
function writeTool(dir: string, writes: string[]): Tool {
  return {
    name: 'write_file',
    description: 'Writes a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
    execute: async (args: { path?: string; content?: string }) => {
      const file = join(dir, args.path ?? 'unnamed.txt');
      await writeFile(file, args.content ?? '');
      writes.push(file);
      return `wrote ${file}`;
    },
  };
}

async function run(model: ChatModel, dir: string) {
  const writes: string[] = [];
  const agent = new ChatModelAgent({ name: 'Writer', description: 'w', model, tools: [writeTool(dir, writes)], retry: { maxRetries: 0 } });
  const events: AgentEvent[] = [];
  const messages: Message[] = [];
  const status = new RunStatusTracker();
  for await (const e of new Runner({ agent, enableStreaming: true }).query('Write the quarterly report to report.md')) {
    events.push(e);
    status.see(e);
    const v = e.output?.message;
    if (v) {
      const m = v.stream ? await v.stream.collect().catch(() => undefined) : v.message;
      if (m) messages.push(m);
    }
  }
  return { writes, messages, status: status.finish(), reason: status.incompleteReason, error: status.error };
}

// The shape of a real Messages stream that reached max_tokens inside a tool_use block's arguments:
// the block still gets its content_block_stop, then message_delta says stop_reason max_tokens.
const cutCapture = (partials: string[]): Array<[string, unknown]> => [
  ['message_start', { type: 'message_start', message: { id: 'msg_014p7gG3wDgGV9EUtLvnow3U', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 472, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 2 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
  ['ping', { type: 'ping' }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: "I'll write the report." } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'write_file', input: {} } }],
  ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }],
  ...partials.map((p): [string, unknown] => ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: p } }]),
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 64 } }],
  ['message_stop', { type: 'message_stop' }],
];

function expectCutOff(r: Awaited<ReturnType<typeof run>>, dir: string) {
  expect(r.writes).toEqual([]);
  expect(existsSync(join(dir, 'report.md'))).toBe(false);
  expect(existsSync(join(dir, 'unnamed.txt'))).toBe(false);
  expect(r.status).toBe('incomplete');
  expect(r.reason).toBe('length');
  expect(r.error).toBeInstanceOf(IncompleteReplyError);
  expect(r.error!.message).toContain('write_file');
  expect(r.error!.message).toContain('max_tokens');
  expect(r.error!.message).toContain('not run');
  // The cut call is answered with an error result, so the history stays a valid conversation.
  const result = r.messages.find((m) => m.role === 'tool')!;
  expect(result).toMatchObject({ isError: true, toolName: 'write_file' });
  expect(result.content).toContain('was not run');
}

describe('cut-off tool calls never run', () => {
  it('Anthropic: max_tokens inside a tool_use block (partial input, or none yet): not run, incomplete (length), and the next request is valid', async () => {
    for (const partials of [['{"path": "report.md", "con', 'tent": "# Quarterly report\\n\\nRevenue grew'], []]) {
      anthropic.reset();
      const dir = mkdtempSync(join(tmpdir(), 'adk-cut-'));
      anthropic.enqueue({ events: cutCapture(partials) });
      const claude = new AnthropicChatModel({ model: 'claude-sonnet-4-5', apiKey: 'ak-test', baseURL: anthropic.url });
      const r = await run(claude, dir);
      expectCutOff(r, dir);
      // The next turn: the server (which refuses unanswered tool_use blocks) takes the history.
      anthropic.enqueue({ text: 'Shorter this time.' });
      const history = [userMessage('Write the quarterly report to report.md'), ...r.messages, userMessage('go on, in parts')];
      const next = await claude.generate(history);
      expect(next.content).toBe('Shorter this time.');
      const sent = anthropic.requests.at(-1)!.body.messages;
      expect(sent[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', is_error: true });
    }
  });

  it('OpenAI: finish_reason length mid-arguments: not run, incomplete (length), the history carries an error result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-cut-'));
    openai.enqueue({
      sse: sseOf(
        chunk({ role: 'assistant', content: null, refusal: null }),
        chunk({ tool_calls: [{ index: 0, id: 'call_Qx3rVd8Lk2', type: 'function', function: { name: 'write_file', arguments: '' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path": "report.md", ' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"content": "# Quarterly report\\n\\nRev' } }] }),
        chunk({}, 'length'),
        { id: 'chatcmpl-rec', object: 'chat.completion.chunk', created: 0, model: 'rec', choices: [], usage: { prompt_tokens: 80, completion_tokens: 16, total_tokens: 96 } },
      ),
    });
    const model = new OpenAIChatModel({ model: 'gpt-4o-mini', apiKey: 'sk-test', baseURL: openai.url, profile: PROFILES.openai, maxTokens: 16 });
    const r = await run(model, dir);
    expectCutOff(r, dir);
    const wire = toOpenAIMessages([userMessage('x'), ...r.messages]) as any[];
    expect(wire.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(wire[2]).toMatchObject({ role: 'tool', tool_call_id: r.messages[0]!.toolCalls![0]!.id });
  });

  it('a complete reply with finish_reason tool_calls still runs its call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-cut-'));
    openai.enqueue(
      { sse: sseOf(chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_ok', type: 'function', function: { name: 'write_file', arguments: '{"path":"report.md","content":"ok"}' } }] }), chunk({}, 'tool_calls')) },
      { content: 'Written.' },
    );
    const r = await run(new OpenAIChatModel({ model: 'gpt-4o-mini', apiKey: 'sk-test', baseURL: openai.url, profile: PROFILES.openai }), dir);
    expect(r.status).toBe('completed');
    expect(r.writes).toEqual([join(dir, 'report.md')]);
  });
});
