import { afterEach, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { SequentialAgent } from '../../src/core/agents/workflow.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { Runner } from '../../src/core/runner.js';
import { InMemoryCheckpointStore } from '../../src/core/store/checkpoint-store.js';
import type { Tool, ToolContext } from '../../src/core/tools/tool.js';
import { Conversation, openAdkStores, type AdkStores } from '../../src/core/entries/conversation.js';

// Eino's WithChatModelOptions, WithToolOptions and DesignateAgent: per-run options for models and
// tools, for every agent or addressed to agents by name.

const call = (name: string, id: string) => ({ toolCalls: [{ name, arguments: {}, id }] });

/** A tool that records the options each call was given. */
function probe(seen: unknown[]): Tool {
  return {
    name: 'probe',
    description: 'records its options',
    parameters: { type: 'object', properties: {} },
    execute(_args: unknown, ctx: ToolContext) {
      seen.push(ctx.options);
      return 'ok';
    },
  };
}

const sampling = (m: ScriptedChatModel) => m.calls.map((c) => ({ temperature: c.options?.temperature, maxTokens: c.options?.maxTokens }));

describe('per-run model and tool options', () => {
  it('modelOptions reach every model call; options addressed to an agent by name go over them for that agent', async () => {
    const outlinerModel = new ScriptedChatModel([{ content: 'outline' }]);
    const writerModel = new ScriptedChatModel([{ content: 'text' }]);
    const team = new SequentialAgent({
      name: 'pipeline',
      subAgents: [new ChatModelAgent({ name: 'outliner', description: 'o', model: outlinerModel }), new ChatModelAgent({ name: 'writer', description: 'w', model: writerModel })],
    });
    const result = await new Runner({ agent: team, tracing: false }).query('go', {
      modelOptions: { temperature: 0, maxTokens: 100 },
      agents: { writer: { modelOptions: { temperature: 0.7 } } },
    }).result;
    expect(result.status).toBe('completed');
    expect(sampling(outlinerModel)).toEqual([{ temperature: 0, maxTokens: 100 }]);
    expect(sampling(writerModel)).toEqual([{ temperature: 0.7, maxTokens: 100 }]);
  });

  it('toolOptions reach the tools as ctx.options, merged with the calling agent’s own', async () => {
    const seen: unknown[] = [];
    const model = new ScriptedChatModel([call('probe', 'c1'), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [probe(seen)] });
    await new Runner({ agent, tracing: false }).query('go', { toolOptions: { units: 'metric', verbose: false }, agents: { a: { toolOptions: { verbose: true } }, b: { toolOptions: { other: 1 } } } }).result;
    expect(seen).toEqual([{ units: 'metric', verbose: true }]);
  });

  it('a tool gets empty options when the run gives none', async () => {
    const seen: unknown[] = [];
    const model = new ScriptedChatModel([call('probe', 'c1'), { content: 'done' }]);
    await new Runner({ agent: new ChatModelAgent({ name: 'a', description: 'd', model, tools: [probe(seen)] }), tracing: false }).query('go').result;
    expect(seen).toEqual([{}]);
  });

  it('Runner.resume takes them too: the calls after the resume use the resume’s options', async () => {
    const store = new InMemoryCheckpointStore();
    const seen: unknown[] = [];
    const model = new ScriptedChatModel([call('probe', 'c1'), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [probe(seen)], approval: ['probe'] });
    const runner = new Runner({ agent, checkpointStore: store, tracing: false });
    const first = await runner.query('go', { checkpointId: 'cp', modelOptions: { temperature: 1 } }).result;
    expect(first.status).toBe('interrupted');
    const second = await runner.resume('cp', { targets: { [first.interrupts[0]!.id]: { approved: true } } }, { modelOptions: { temperature: 0.2 }, toolOptions: { dryRun: true } }).result;
    expect(second.status).toBe('completed');
    expect(sampling(model).map((s) => s.temperature)).toEqual([1, 0.2]);
    expect(seen).toEqual([{ dryRun: true }]);
  });
});

describe('per-turn model and tool options in a Conversation', () => {
  const open: AdkStores[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('send and answer pass them to the turn’s run', async () => {
    const stores = await openAdkStores('memory://');
    open.push(stores);
    const seen: unknown[] = [];
    const model = new ScriptedChatModel([{ content: 'hi' }, call('probe', 'c1'), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'bot', description: 'chats', model, tools: [probe(seen)], approval: ['probe'] });
    const conv = await Conversation.start({ agent, stores });
    await conv.send('hello', { modelOptions: { temperature: 0 } }).result;
    const asked = await conv.send('probe it', { agents: { bot: { modelOptions: { temperature: 0.5 } } } }).result;
    expect(asked.status).toBe('interrupted');
    await conv.answer({ [asked.interrupts[0]!.id]: { approved: true } }, { toolOptions: { dryRun: true }, modelOptions: { maxTokens: 5 } }).result;
    expect(sampling(model)).toEqual([
      { temperature: 0, maxTokens: undefined },
      { temperature: 0.5, maxTokens: undefined },
      { temperature: undefined, maxTokens: 5 },
    ]);
    expect(seen).toEqual([{ dryRun: true }]);
    await conv.close();
  });
});

describe('per-run model options on a real client', () => {
  it('reach the OpenAI request body over HTTP, laid over the model’s own settings', async () => {
    const { startOpenAIServer } = await import('../support/openai-server.js');
    const { OpenAIChatModel } = await import('../../src/core/models/openai.js');
    const server = await startOpenAIServer();
    try {
      server.enqueue({ content: 'cold' });
      const model = new OpenAIChatModel({ model: 'gpt-test', baseURL: server.url, apiKey: 'k-123456789', temperature: 0.9 });
      const agent = new ChatModelAgent({ name: 'writer', description: 'writes', model });
      const run = new Runner({ agent, tracing: false }).query('hi', { modelOptions: { temperature: 0.1 }, agents: { writer: { modelOptions: { maxTokens: 33 } } } });
      for await (const _ of run);
      const body = server.chatRequests.at(-1)!.body;
      expect(body.temperature).toBe(0.1);
      expect(body.max_tokens ?? body.max_completion_tokens).toBe(33);
    } finally {
      await server.close();
    }
  });
});
