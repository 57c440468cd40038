import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ChatModelAgent,
  InMemoryCheckpointStore,
  Runner,
  ScriptedChatModel,
  reduceToolResultsMiddleware,
  summarizeMiddleware,
  userMessage,
  type AgentEvent,
  type AgentMiddleware,
  type Message,
  type ScriptStep,
  type Tool,
} from '../../src/core/index.js';

const echo: Tool<{ text: string }> = {
  name: 'echo',
  description: 'Echo text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
};

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const call = (name: string, args: unknown, id = 'c1'): ScriptStep => ({ toolCalls: [{ name, arguments: args, id }] });
const withWindow = (m: ScriptedChatModel, contextWindow: number) => Object.assign(m, { contextWindow });

describe('middleware API', () => {
  it('runs hooks in order: before* first to last, after* last to first, wrap* with the first outermost', async () => {
    const log: string[] = [];
    const mw = (n: string): AgentMiddleware => ({
      name: n,
      beforeAgent: () => void log.push(`${n}.beforeAgent`),
      beforeModel: () => void log.push(`${n}.beforeModel`),
      afterModel: () => void log.push(`${n}.afterModel`),
      afterAgent: (_c, _s, end) => void log.push(`${n}.afterAgent:${end.output}`),
      wrapModel: (next) => async (m, o) => {
        log.push(`${n}.model>`);
        const r = await next(m, o);
        log.push(`${n}.model<`);
        return r;
      },
      wrapToolCall: (next) => async (req) => {
        log.push(`${n}.tool>`);
        const r = await next(req);
        log.push(`${n}.tool<`);
        return r;
      },
    });
    const model = new ScriptedChatModel([call('echo', { text: 'x' }), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [echo], middlewares: [mw('A'), mw('B')] });
    await collect(new Runner({ agent }).query('go'));
    expect(log.slice(0, 10)).toEqual([
      'A.beforeAgent', 'B.beforeAgent',
      'A.beforeModel', 'B.beforeModel',
      'A.model>', 'B.model>', 'B.model<', 'A.model<',
      'B.afterModel', 'A.afterModel',
    ]);
    expect(log.slice(10, 14)).toEqual(['A.tool>', 'B.tool>', 'B.tool<', 'A.tool<']);
    expect(log.slice(-2)).toEqual(['B.afterAgent:done', 'A.afterAgent:done']);
  });

  it('wrapToolCall can answer without the tool, rewrite arguments and rewrite results', async () => {
    let ran = 0;
    const tool: Tool<{ text: string }> = { ...echo, execute: ({ text }) => (ran++, `echo: ${text}`) };
    const mw: AgentMiddleware = {
      name: 'guard',
      wrapToolCall: (next) => async (req) => {
        const args = JSON.parse(req.call.function.arguments) as { text: string };
        if (args.text === 'forbidden') return { kind: 'done', content: 'blocked by policy', isError: true };
        const r = await next({ ...req, arguments: { text: args.text.toUpperCase() } });
        return r.kind === 'done' ? { ...r, content: `${r.content}!` } : r;
      },
    };
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'echo', arguments: { text: 'forbidden' }, id: 'c1' }, { name: 'echo', arguments: { text: 'hi' }, id: 'c2' }] },
      { content: 'ok' },
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [tool], middlewares: [mw] });
    await collect(new Runner({ agent }).query('go'));
    const results = model.calls[1].messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['blocked by policy', 'echo: HI!']);
    expect(ran).toBe(1);
  });

  it('beforeModel can change this request only, or the kept state; custom events reach the caller', async () => {
    const mw: AgentMiddleware = {
      name: 'notes',
      beforeModel(ctx, state, request) {
        if (state.messages.length === 2) state.messages.push(userMessage('kept: from the state'));
        ctx.emit({ type: 'note', n: state.messages.length });
        return { ...request, messages: [...request.messages, userMessage('this call only')], tools: [] };
      },
    };
    const model = new ScriptedChatModel([call('echo', { text: 'x' }), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', instruction: 'sys', model, tools: [echo], middlewares: [mw] });
    const events = await collect(new Runner({ agent }).query('go'));
    const [first, second] = model.calls;
    expect(first.messages.map((m) => m.content)).toEqual(['sys', 'go', 'kept: from the state', 'this call only']);
    expect(first.options?.tools).toBeUndefined();
    expect(second.messages.map((m) => m.content)).toContain('kept: from the state');
    expect(second.messages.filter((m) => m.content === 'this call only')).toHaveLength(1);
    expect(events.flatMap((e) => (e.output?.custom ? [e.output.custom] : []))).toEqual([{ type: 'note', n: 3 }, { type: 'note', n: 5 }]);
  });

  it('run-local values are saved in the checkpoint and are there again on resume', async () => {
    const seen: unknown[] = [];
    const mw: AgentMiddleware = {
      name: 'counter',
      beforeModel(ctx) {
        ctx.values.calls = ((ctx.values.calls as number) ?? 0) + 1;
        seen.push(ctx.values.calls);
      },
    };
    const model = new ScriptedChatModel([call('echo', { text: 'x' }), { content: 'done' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [echo], approval: ['echo'], middlewares: [mw] });
    const store = new InMemoryCheckpointStore();
    const runner = new Runner({ agent, checkpointStore: store });
    const first = await collect(runner.run([userMessage('go')], { checkpointId: 'cp' }));
    const interrupt = first.find((e) => e.action?.interrupted)!.action!.interrupted!;
    expect(JSON.parse((await store.get('cp'))!)).toBeTruthy();
    await collect(runner.resume('cp', { targets: { [interrupt.contexts[0].id]: { approved: true } } }));
    expect(seen).toEqual([1, 2]);
  });

  it('approval is a middleware: it is the outermost layer, so nothing unapproved reaches the others', async () => {
    const reached: string[] = [];
    const mw: AgentMiddleware = { name: 'spy', wrapToolCall: (next) => (req) => (reached.push(req.call.function.name), next(req)) };
    const model = new ScriptedChatModel([call('echo', { text: 'x' })]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [echo], approval: ['echo'], middlewares: [mw] });
    const events = await collect(new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).run([userMessage('go')], { checkpointId: 'x' }));
    expect(events.some((e) => e.action?.interrupted)).toBe(true);
    expect(reached).toEqual([]);
  });
});

describe('summarize middleware', () => {
  const turns = (n: number): Message[] => Array.from({ length: n }, (_, i) => [userMessage(`question ${i} ${'lorem ipsum '.repeat(40)}`), { role: 'assistant' as const, content: `answer ${i}` }]).flat();

  it('replaces older turns with the model\'s summary when a request would pass the threshold, keeping calls with their results', async () => {
    const model = withWindow(
      new ScriptedChatModel((messages) => (messages[0].content.startsWith('You are compacting') ? { content: 'SUMMARY of questions 0-6' } : { content: 'fine' })),
      2000,
    );
    const agent = new ChatModelAgent({ name: 'a', description: '', instruction: 'sys', model, middlewares: [summarizeMiddleware({ keepTurns: 2 })] });
    const history = turns(30).map((message) => ({ isUserInput: message.role === 'user', agentName: message.role === 'user' ? '' : 'a', message }));
    const events = await collect(new Runner({ agent }).run([userMessage('now?')], { history }));
    const answer = model.calls.at(-1)!;
    expect(answer.messages[0].content).toBe('sys');
    expect(answer.messages[1].content).toMatch(/^\[Summary of the earlier conversation: \d+ earlier messages\]\nSUMMARY of questions 0-6$/);
    expect(answer.messages.at(-1)!.content).toBe('now?');
    expect(answer.messages.filter((m) => m.content.startsWith('question')).length).toBeLessThanOrEqual(2);
    const custom = events.flatMap((e) => (e.output?.custom ? [e.output.custom] : []));
    expect(custom).toEqual([expect.objectContaining({ type: 'compaction', agent: 'a' })]);
  });

  it('drops the oldest turns when the summary call fails, and the run goes on', async () => {
    const model = withWindow(
      new ScriptedChatModel((messages) => (messages[0].content.startsWith('You are compacting') ? { error: new Error('summariser down') } : { content: 'fine' })),
      2000,
    );
    const agent = new ChatModelAgent({ name: 'a', description: '', model, middlewares: [summarizeMiddleware({ keepTurns: 2 })] });
    const history = turns(30).map((message) => ({ isUserInput: message.role === 'user', agentName: message.role === 'user' ? '' : 'a', message }));
    const events = await collect(new Runner({ agent }).run([userMessage('now?')], { history }));
    expect(events.some((e) => e.error)).toBe(false);
    const custom = events.flatMap((e) => (e.output?.custom ? [e.output.custom] : []));
    expect(custom).toEqual([expect.objectContaining({ type: 'compaction', error: 'summariser down' })]);
    expect(model.calls.at(-1)!.messages.some((m) => m.content.startsWith('question 0'))).toBe(false);
  });

  it('cuts inside one long tool loop without separating a call from its result', async () => {
    let step = 0;
    const big = 'data '.repeat(300);
    const model = withWindow(
      new ScriptedChatModel((messages) => {
        if (messages[0].content.startsWith('You are compacting')) return { content: 'earlier steps: echoed a lot' };
        return ++step < 8 ? { toolCalls: [{ name: 'echo', arguments: { text: big }, id: `c${step}` }] } : { content: 'finished' };
      }),
      3000,
    );
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [echo], middlewares: [summarizeMiddleware()] });
    await collect(new Runner({ agent }).query('loop'));
    for (const c of model.calls.filter((x) => !x.messages[0].content.startsWith('You are compacting'))) {
      const ids = new Set(c.messages.flatMap((m) => (m.toolCalls ?? []).map((t) => t.id)));
      for (const m of c.messages.filter((x) => x.role === 'tool')) expect(ids.has(m.toolCallId!)).toBe(true);
      for (const id of ids) expect(c.messages.some((m) => m.role === 'tool' && m.toolCallId === id)).toBe(true);
    }
    expect(model.calls.some((x) => x.messages[0].content.startsWith('You are compacting'))).toBe(true);
  });
});

describe('reduce_tool_results middleware', () => {
  it('shows a long result as head and tail, and read_tool_result pages the rest', async () => {
    const long = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const big: Tool<Record<string, never>> = { name: 'big', description: 'Big output.', parameters: z.object({}), execute: () => long };
    let id = '';
    const model = new ScriptedChatModel([
      call('big', {}),
      (messages) => {
        const excerpt = messages.at(-1)!.content;
        id = /"id":"(r_[0-9a-f]+)"/.exec(excerpt)![1];
        const offset = Number(/"offset":(\d+)/.exec(excerpt)![1]);
        return { toolCalls: [{ name: 'read_tool_result', arguments: { id, offset }, id: 'c2' }] };
      },
      { content: 'done' },
    ]);
    // The output cap (3,000 here) has the last word, after reduction saved the whole result.
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [big], maxToolOutputChars: 3000, middlewares: [reduceToolResultsMiddleware({ maxChars: 2000 })] });
    await collect(new Runner({ agent }).query('go'));
    const excerpt = model.calls[1].messages.at(-1)!.content;
    expect(excerpt.length).toBeLessThan(2300);
    expect(excerpt.startsWith('line 0\nline 1')).toBe(true);
    expect(excerpt.endsWith('line 4999')).toBe(true);
    expect(excerpt).toMatch(/characters omitted; the whole result is saved: read_tool_result/);
    const page = model.calls[2].messages.at(-1)!.content;
    expect(long.slice(1400)).toContain(page.slice(0, 1000));
    expect(model.calls[0].options?.tools?.map((t) => t.name)).toContain('read_tool_result');
  });

  it('clears old results when space is short, saving each once under a stable id (the placeholder never changes)', async () => {
    const puts: string[] = [];
    const saved = new Map<string, string>();
    const artifacts = { put: async (id: string, text: string) => void (puts.push(id), saved.set(id, text)), get: async (id: string) => saved.get(id) };
    const result = 'x'.repeat(3000);
    const tool: Tool<Record<string, never>> = { name: 'dump', description: 'Dump.', parameters: z.object({}), execute: () => result };
    let n = 0;
    const model = withWindow(new ScriptedChatModel(() => (++n <= 6 ? { toolCalls: [{ name: 'dump', arguments: {}, id: `d${n}` }] } : { content: 'done' })), 4000);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [tool], middlewares: [reduceToolResultsMiddleware({ keepTurns: 1 })] });
    const history = [1, 2, 3].flatMap((t) => [
      { isUserInput: true, agentName: '', message: userMessage(`turn ${t}`) },
      { isUserInput: false, agentName: 'a', message: { role: 'assistant' as const, content: '', toolCalls: [{ id: `h${t}`, function: { name: 'dump', arguments: '{}' } }] } },
      { isUserInput: false, agentName: 'a', message: { role: 'tool' as const, content: result, toolCallId: `h${t}`, toolName: 'dump' } },
      { isUserInput: false, agentName: 'a', message: { role: 'assistant' as const, content: 'ok' } },
    ]);
    await collect(new Runner({ agent }).run([userMessage('now')], { history, artifacts }));
    const placeholders = model.calls.map((c) => c.messages.filter((m) => m.role === 'tool' && m.content.startsWith('[result cleared')).map((m) => m.content));
    const cleared = placeholders.filter((p) => p.length);
    expect(cleared.length).toBeGreaterThan(1);
    // The same three old results, cleared on every request, with the same text each time.
    for (const p of cleared) expect(p).toEqual(cleared[0]);
    expect(new Set(puts).size).toBe(puts.length);
    expect(puts).toHaveLength(3);
    expect([...saved.values()].every((v) => v === result)).toBe(true);
  });
});

describe('cuts', () => {
  it('never leave a tool result whose call was cut (interleaved parallel branches)', async () => {
    const { keepCallsWithResults } = await import('../../src/core/context/cut.js');
    const call = (id: string): Message => ({ role: 'assistant', content: '', toolCalls: [{ id, function: { name: 't', arguments: '{}' } }] });
    const result = (id: string): Message => ({ role: 'tool', content: 'r', toolCallId: id, toolName: 't' });
    const interleaved = [userMessage('go'), call('a1'), call('b1'), result('a1'), result('b1'), { role: 'assistant', content: 'a done' } as Message];
    expect(keepCallsWithResults(interleaved, 2)).toBe(1);
    expect(keepCallsWithResults(interleaved, 5)).toBe(5);
    expect(keepCallsWithResults(interleaved, 0)).toBe(0);
  });
});
