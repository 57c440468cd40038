import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { createRunContext } from '../../src/core/agents/run-context.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { ResumeContext, flattenSignal } from '../../src/core/interrupt.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { userMessage } from '../../src/core/schema/message.js';
import { askUserTool } from '../../src/core/tools/builtin/ask-user.js';
import { currentTimeTool, describeTime } from '../../src/core/tools/builtin/current-time.js';
import { ToolInterrupt } from '../../src/core/tools/tool.js';
import { fakeCtx, resumed, run } from './helpers.js';

describe('ask_user', () => {
  it('interrupts for input on the first run', async () => {
    let caught: unknown;
    try {
      await askUserTool.execute({ question: 'Which city?' }, fakeCtx());
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ToolInterrupt);
    expect((caught as ToolInterrupt).info).toEqual({ kind: 'input', message: 'Which city?' });
  });

  it('returns the answer when resumed as the target, as a string or { answer }', async () => {
    expect(await run(askUserTool, { question: 'q' }, fakeCtx({ resume: resumed('Paris') }))).toEqual({ content: 'Paris', isError: false });
    expect((await run(askUserTool, { question: 'q' }, fakeCtx({ resume: resumed({ answer: 'Rome' }) }))).content).toBe('Rome');
  });

  it('asks again when resumed without data, not targeted, or with malformed data', async () => {
    for (const resume of [resumed(undefined), resumed('Paris', false), resumed({ nope: 1 })]) {
      await expect(Promise.resolve().then(() => askUserTool.execute({ question: 'again?' }, fakeCtx({ resume })))).rejects.toBeInstanceOf(ToolInterrupt);
    }
  });

  it('round-trips through an agent interrupt and resume', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Your name?' } }] },
      (messages) => ({ content: `Hello ${messages[messages.length - 1].content}` }),
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: 'a', model, tools: [askUserTool] });
    const first: AgentEvent[] = [];
    for await (const e of agent.run({ messages: [userMessage('hi')] })) first.push(e);
    const interrupted = first.find((e) => e.action?.interrupted)!.action!.interrupted!;
    const point = interrupted.contexts[0];
    expect(point.info).toEqual({ kind: 'input', message: 'Your name?' });

    const resume = new ResumeContext(flattenSignal(interrupted.signal), { [point.id]: 'Ada' });
    const ctx = createRunContext({ resume });
    const own = resume.take(ctx.address);
    const second: AgentEvent[] = [];
    for await (const e of agent.resume(own, ctx)) second.push(e);
    expect(second.map((e) => e.output?.message?.message?.content)).toEqual(['Ada', 'Hello Ada']);
  });
});

describe('current_time', () => {
  it('gives ISO UTC time and the local time with its zone', async () => {
    const out = (await run(currentTimeTool, {})).content;
    expect(out).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\nlocal time: .+\ntime zone: .+$/);
    expect(describeTime(new Date('2024-03-01T12:00:00Z'), 'Asia/Tokyo')).toBe(
      '2024-03-01T12:00:00.000Z\nlocal time: Friday, March 1, 2024 at 21:00:00 GMT+09:00\ntime zone: Asia/Tokyo',
    );
  });
});
