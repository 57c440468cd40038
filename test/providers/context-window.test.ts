import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { summarizeMiddleware } from '../../src/core/middlewares/summarize.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { PROFILES } from '../../src/core/models/providers.js';
import { estimatePromptTokens } from '../../src/core/models/token-estimate.js';
import { Runner } from '../../src/core/runner.js';
import type { Message } from '../../src/core/schema/message.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

// Issue 35, item 9: every model has a window, read from its server or assumed with a notice.
let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const MODEL = 'Qwen/Qwen2.5-7B-Instruct';
/** vLLM's own words when a request does not fit (vllm/entrypoints/openai/serving_engine.py). */
const vllmTooLong = (n: number) => ({
  status: 400,
  errorBody: { object: 'error', message: `This model's maximum context length is 4096 tokens. However, you requested ${n} tokens (${n - 512} in the messages, 512 in the completion). Please reduce the length of the messages or completion.`, type: 'BadRequestError', param: null, code: 400 },
});

/** A long session: ten earlier turns of about 400 tokens each. */
function longHistory(repeat = 25): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < 10; i++) {
    out.push({ role: 'user', content: `Question ${i}: ${'tell me about the weather in the mountains and the valleys '.repeat(repeat)}` });
    out.push({ role: 'assistant', content: `Answer ${i}: ${'the weather is mild with some clouds over the ridges today '.repeat(repeat)}` });
  }
  out.push({ role: 'user', content: 'And today?' });
  return out;
}

async function runLong(model: OpenAIChatModel, repeat?: number): Promise<AgentEvent[]> {
  const agent = new ChatModelAgent({ name: 'A', description: 'a', model, middlewares: [summarizeMiddleware()], retry: { maxRetries: 0 } });
  const events: AgentEvent[] = [];
  for await (const e of new Runner({ agent }).run(longHistory(repeat))) events.push(e);
  return events;
}

/** A server that enforces a 4096-token window as vLLM does, counting with adk's own estimate. */
function enforce4096() {
  server.onRequest(async (r) => {
    const tokens = await estimatePromptTokens(MODEL, r.body.messages);
    if (tokens + 512 > 4096) return vllmTooLong(tokens + 512);
    const summarising = JSON.stringify(r.body.messages).includes('summar');
    return { content: summarising ? 'Summary: ten questions about mountain weather, all answered mild.' : 'Sunny.' };
  });
}

const customs = (events: AgentEvent[]) => events.map((e) => e.output?.custom).filter(Boolean) as any[];

describe('context windows', () => {
  it("vLLM's max_model_len 4096 in /models: a long session is compacted under it before sending, and answered", async () => {
    server.setModels([{ id: MODEL, object: 'model', created: 0, owned_by: 'vllm', root: MODEL, parent: null, max_model_len: 4096 }]);
    enforce4096();
    const model = new OpenAIChatModel({ model: MODEL, baseURL: server.url, profile: PROFILES.openai, detectServer: true });
    const events = await runLong(model);
    expect(events.filter((e) => e.error).map((e) => e.error!.message)).toEqual([]);
    expect(model.contextWindow).toBe(4096);
    expect(model.profile.name).toBe('vllm');
    expect(customs(events).filter((c) => c.type === 'compaction')).toHaveLength(1);
    expect(customs(events).filter((c) => c.type === 'model_notice')).toEqual([]);
    const last = server.chatRequests.at(-1)!;
    expect(await estimatePromptTokens(MODEL, last.body.messages)).toBeLessThan(4096 - 512);
  });

  it('the same server without the field: the default window and a notice naming context_window', async () => {
    server.setModels([{ id: MODEL, object: 'model', created: 0, owned_by: 'vllm' }]);
    server.onRequest(() => ({ content: 'ok' }));
    // A short conversation has nothing to be told: the guess does not matter yet.
    const short = await runLong(new OpenAIChatModel({ model: MODEL, baseURL: server.url, profile: PROFILES.openai }));
    expect(customs(short).filter((c) => c.type === 'model_notice')).toEqual([]);
    // Past half the guessed window, the guess matters: said once, naming the key to set.
    const model = new OpenAIChatModel({ model: MODEL, baseURL: server.url, profile: PROFILES.openai });
    const events = await runLong(model, 90);
    const notices = customs(events).filter((c) => c.type === 'model_notice');
    expect(notices).toEqual([expect.objectContaining({ kind: 'context_window', window: 32_768 })]);
    expect(notices[0].text).toContain('context_window');
  });

  it('a context_length_exceeded answer leads to one compaction and a successful retry', async () => {
    server.setModels([{ id: MODEL, object: 'model', created: 0, owned_by: 'vllm' }]);
    enforce4096();
    const model = new OpenAIChatModel({ model: MODEL, baseURL: server.url, profile: PROFILES.openai });
    const events = await runLong(model);
    expect(events.filter((e) => e.error).map((e) => e.error!.message)).toEqual([]);
    const statuses = server.chatRequests.map((r) => (JSON.stringify(r.body.messages).includes('summar') ? 'summary' : 'turn'));
    // The rejected turn, the summary (written in as many requests as the learned window needs), the one retry.
    expect(statuses.filter((x) => x === 'turn')).toHaveLength(2);
    expect([statuses[0], statuses.at(-1)]).toEqual(['turn', 'turn']);
    expect(server.chatRequests[0]!.body.messages.length).toBeGreaterThan(server.chatRequests.at(-1)!.body.messages.length);
    expect(customs(events).filter((c) => c.type === 'compaction')).toHaveLength(1);
    const final = events.map((e) => e.output?.message?.message?.content).filter(Boolean).at(-1);
    expect(final).toBe('Sunny.');
  });

  it("Ollama's /api/show num_ctx is the window", async () => {
    server.setModels([{ id: 'house-model:8b', object: 'model', created: 0, owned_by: 'library' }]);
    server.setOllamaShow({ parameters: 'num_ctx                        8192\nstop "<|im_end|>"', model_info: { 'qwen3.context_length': 40960 } });
    const model = new OpenAIChatModel({ model: 'house-model:8b', baseURL: server.url, profile: PROFILES.ollama });
    await expect(model.resolveContextWindow()).resolves.toEqual({ window: 8192, source: 'server' });
  });
});
