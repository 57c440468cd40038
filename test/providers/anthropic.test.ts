import { describe, expect, it } from 'vitest';
import { ModelHttpError } from '../../src/core/errors.js';
import { AnthropicChatModel } from '../../src/core/models/anthropic.js';
import { useAnthropicServer, type AnthropicTestServer } from '../support/anthropic-server.js';
import { expectExit, ofType, storeBytes, tempDir, tempHome, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { replay } from './helpers.js';

// Native Anthropic through @anthropic-ai/sdk, against a local server speaking the Messages SSE format.
let server: AnthropicTestServer;
useAnthropicServer((s) => (server = s));

const claude = (o: Partial<ConstructorParameters<typeof AnthropicChatModel>[0]> = {}) =>
  new AnthropicChatModel({ model: 'claude-test-1', apiKey: 'ak-test-secret-9999', baseURL: server.url, ...o });

describe('native Anthropic', () => {
  it('a parallel tool round-trip with thinking: blocks go back whole, with their signatures, ahead of the tool uses', async () => {
    server.enqueue(
      {
        thinking: { text: 'I need the time and the file.', signature: 'EqQBCkYSIG==' },
        text: 'Checking.',
        toolCalls: [
          { id: 'toolu_01A', name: 'current_time', input: {} },
          { id: 'toolu_01B', name: 'read_file', input: { path: 'notes.txt' } },
        ],
        usage: { input_tokens: 120, output_tokens: 40, cache_creation_input_tokens: 900 },
      },
      { text: 'It is 4 am; the file says hi.', usage: { input_tokens: 30, output_tokens: 12, cache_read_input_tokens: 900 } },
    );
    const r = await replay(claude({ extraBody: { thinking: { type: 'enabled', budget_tokens: 2048 } } }));
    expect(r.errors).toEqual([]);
    expect(r.runs.map((x) => x.name).sort()).toEqual(['current_time', 'read_file']);
    expect(r.output).toBe('It is 4 am; the file says hi.');

    const first = r.messages.find((m) => m.toolCalls)!;
    expect(first.reasoningContent).toBe('I need the time and the file.');
    expect(first.usage).toEqual({ promptTokens: 1020, completionTokens: 40, totalTokens: 1060, cacheWriteTokens: 900 });
    expect(r.messages.at(-1)!.usage).toMatchObject({ promptTokens: 930, cacheReadTokens: 900 });

    const [req1, req2] = server.requests;
    expect(req1!.headers['x-api-key']).toBe('ak-test-secret-9999');
    expect(req1!.headers.authorization).toBeUndefined();
    expect(req1!.body.tools.map((t: any) => t.name)).toEqual(['current_time', 'read_file']);
    const assistant = req2!.body.messages[1];
    expect(assistant.content.map((b: any) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'I need the time and the file.', signature: 'EqQBCkYSIG==' });
    expect(req2!.body.messages[2].content.map((b: any) => [b.type, b.tool_use_id])).toEqual([
      ['tool_result', 'toolu_01A'],
      ['tool_result', 'toolu_01B'],
    ]);
  });

  // Issue 43, item 7: Anthropic's own tools (web search) arrive as `server_tool_use` and
  // `web_search_tool_result` blocks (a recorded stream, trimmed). adk dropped them: not shown, and
  // not sent back. Now they are shown as the model's own work and go back as they came; never run here.
  it('a server-side web search (recorded stream) is shown and sent back, never run as an adk tool', async () => {
    const { recorded } = await import('../support/replay-server.js');
    const events = recorded('anthropic-web-search-tool.1.trimmed.chunks.txt').map((e) => [String(e.type), e] as [string, unknown]);
    server.enqueue({ events }, { text: 'Glad to help.' });
    const model = claude();
    const r = await replay(model, 'What is the tech news today?');
    expect(r.errors).toEqual([]);
    expect(r.runs).toEqual([]);
    const answer = r.messages.find((m) => m.role === 'assistant')!;
    expect(answer.content).toMatch(/^\n\nThe main tech story today .* retail expansion\.$/s);
    expect(answer.reasoningContent).toContain('[web_search ran on Anthropic\'s side] {"query":"tech news today September 26 2025"}');
    expect(answer.reasoningContent).toContain('The Latest AI News and AI Breakthroughs that Matter Most');
    const { toAnthropicRequest } = await import('../../src/core/models/anthropic-convert.js');
    const next = toAnthropicRequest([{ role: 'user', content: 'news?' }, answer, { role: 'user', content: 'thanks' }]);
    const blocks = (next.messages[1]!.content as Array<Record<string, unknown>>).map((b) => b.type);
    expect(blocks).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect((next.messages[1]!.content as Array<Record<string, any>>)[0]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k', name: 'web_search', input: { query: 'tech news today September 26 2025' } });
  });

  it('prompt caching: the system prompt and the end of the history carry cache breakpoints', async () => {
    server.enqueue({ toolCalls: [{ id: 'toolu_1', name: 'current_time', input: {} }] }, { text: 'done' });
    const runs: unknown[] = [];
    const { ChatModelAgent } = await import('../../src/core/agents/chat-model-agent.js');
    const { Runner } = await import('../../src/core/runner.js');
    const { replayTools } = await import('./helpers.js');
    const agent = new ChatModelAgent({ name: 'A', description: 'a', instruction: 'You are terse.', model: claude(), tools: replayTools(runs as never) });
    for await (const _ of new Runner({ agent, enableStreaming: true }).query('time?'));
    const req = server.requests[1]!.body;
    expect(req.system).toEqual([{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }]);
    const last = req.messages.at(-1).content.at(-1);
    expect(last).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral' } });
  });

  it('max_tokens and refusal end the run incomplete', async () => {
    server.enqueue({ text: 'Part', stopReason: 'max_tokens' });
    const r = await replay(claude(), 'long');
    expect(r.output).toBe('Part');
    expect(r.errors[0]!.message).toContain('finish_reason: length');
    server.enqueue({ text: '', stopReason: 'refusal' });
    expect((await replay(claude(), 'bad')).errors[0]!.message).toContain('refused');
  });

  it('an overloaded error event mid-stream is retried; a 400 is shown with its message and not retried', async () => {
    server.enqueue({ errorEvent: { type: 'overloaded_error', message: 'Overloaded' } }, { text: 'second try' });
    const r = await replay(claude(), 'hi');
    expect(r.errors).toEqual([]);
    expect(r.output).toBe('second try');

    server.reset();
    server.enqueue({ status: 400, errorType: 'invalid_request_error' });
    const bad = await replay(claude(), 'hi');
    expect(bad.errors[0]).toBeInstanceOf(ModelHttpError);
    expect(bad.errors[0]!.message).toContain('HTTP 400: scripted 400');
    expect(server.requests).toHaveLength(1);
  });

  it('a rejected parameter the user set is named with the key of the models entry that changes it', async () => {
    server.enqueue({ status: 400, errorType: 'invalid_request_error', errorMessage: 'temperature: Input should be less than or equal to 1' });
    const bad = await replay(claude({ temperature: 1.5, configName: 'claude' }), 'hi');
    expect(bad.errors[0]!.message).toContain("the server rejected `temperature`: remove or change `temperature` on model 'claude' in agents.yaml");
    // Anthropic's name for `stop` is stop_sequences.
    server.reset();
    server.enqueue({ status: 400, errorType: 'invalid_request_error', errorMessage: 'stop_sequences: each stop sequence must contain non-whitespace' });
    const stop = await replay(claude({ stop: ' ', configName: 'claude' }), 'hi');
    expect(stop.errors[0]!.message).toContain("the server rejected `stop_sequences`: remove or change `stop` on model 'claude' in agents.yaml");
  });

  it('non-streaming generate returns text, tool calls and thinking', async () => {
    server.enqueue({ thinking: { text: 'hmm', signature: 'S' }, toolCalls: [{ id: 'toolu_9', name: 'read_file', input: { path: 'notes.txt' } }] }, { text: 'ok' });
    const r = await replay(claude({ extraBody: { thinking: { type: 'enabled', budget_tokens: 1024 } } }), 'read', false);
    expect(r.errors).toEqual([]);
    expect(r.runs[0]).toMatchObject({ name: 'read_file', args: { path: 'notes.txt' } });
    expect(server.requests[1]!.body.messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'hmm', signature: 'S' });
  });

  it("lists Anthropic's models", async () => {
    expect(await claude().listModels()).toEqual(['claude-test-1']);
  });

  it('the key never appears in an error', async () => {
    const m = new AnthropicChatModel({ model: 'x', apiKey: 'ak-test-secret-9999', baseURL: 'http://127.0.0.1:9' });
    const r = await replay(m, 'hi').catch((e) => e);
    expect(String(r.errors[0]?.message)).not.toContain('ak-test-secret-9999');
  });

  it('adk run --json with provider: anthropic: a tool round-trip, and the key is in no output or stored byte', async () => {
    server.enqueue({ thinking: { text: 'time first', signature: 'SIGX' }, toolCalls: [{ id: 'toolu_cli1', name: 'current_time', input: {} }] }, { text: 'It is now.' });
    const dir = tempDir();
    const file = writeAgentsFile(
      dir,
      `version: 1
models:
  claude: { provider: anthropic, model: claude-test-1, base_url: "${server.url}", extra_body: { thinking: { type: enabled, budget_tokens: 1024 } } }
agents:
  helper: { model: claude, instruction: Help., tools: [current_time] }
`,
    );
    const home = tempHome();
    trustAgentsFile(home, file);
    const key = 'sk-ant-test-key-cli-7777';
    const r = await expectExit(['run', '--agents', file, '--json', 'time?'], 0, { env: { ANTHROPIC_API_KEY: key, ADK_HOME: home }, cwd: dir });
    expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'completed', output: 'It is now.' });
    expect(ofType(r.lines, 'thought').map((l: any) => l.content).join('')).toBe('time first');
    expect(server.requests[0]!.headers['x-api-key']).toBe(key);
    expect(server.requests[1]!.body.messages[1].content[0]).toMatchObject({ type: 'thinking', signature: 'SIGX' });
    expect(r.stdout + r.stderr).not.toContain(key);
    expect(storeBytes(home)).not.toContain(key);
  });
});
