import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { userMessage } from '../../src/core/schema/message.js';
import { ToolRegistry } from '../../src/core/tools/registry.js';
import { FIXTURES } from './helpers.js';

const registry = new ToolRegistry({
  workspaceRoot: FIXTURES,
  mcpServers: { calc: { command: process.execPath, args: [path.join(FIXTURES, 'mcp-server.mjs')] } },
});
afterAll(() => registry.close());

async function collect(agent: ChatModelAgent, text: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of agent.run({ messages: [userMessage(text)] })) events.push(e);
  return events;
}

describe('ChatModelAgent with MCP tools', () => {
  it('calls an MCP tool and reads its result', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'mcp__calc__add', arguments: { a: 19, b: 23 } }] },
      (messages) => ({ content: `The sum is ${messages[messages.length - 1].content}.` }),
    ]);
    const agent = new ChatModelAgent({ name: 'calc', description: 'adds', model, tools: await registry.resolve([{ mcp: 'calc' }]) });
    const events = await collect(agent, 'What is 19 + 23?');
    expect(events.filter((e) => e.error)).toEqual([]);
    const toolResult = events.find((e) => e.output?.message?.role === 'tool')?.output?.message?.message;
    expect(toolResult).toMatchObject({ role: 'tool', content: '42', toolName: 'mcp__calc__add' });
    expect(events.at(-1)?.output?.message?.message?.content).toBe('The sum is 42.');
    expect(model.calls[0].options?.tools?.map((t) => t.name)).toContain('mcp__calc__add');
  });

  it('keeps running when the server crashes: the calls come back as error results', async () => {
    const model = new ScriptedChatModel([
      { toolCalls: [{ name: 'mcp__calc__crash', arguments: {} }] },
      { toolCalls: [{ name: 'mcp__calc__add', arguments: { a: 1, b: 2 } }] },
      (messages) => ({ content: `Gave up: ${messages[messages.length - 1].content}` }),
    ]);
    const agent = new ChatModelAgent({ name: 'calc', description: 'adds', model, tools: await registry.resolve(['crash', 'add']) });
    const events = await collect(agent, 'crash please');
    expect(events.filter((e) => e.error)).toEqual([]);
    const results = events.filter((e) => e.output?.message?.role === 'tool').map((e) => e.output!.message!.message!);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/MCP server 'calc' is not running: it exited/);
    }
    expect(events.at(-1)?.output?.message?.message?.content).toMatch(/^Gave up: Error: MCP server 'calc' is not running/);
  });
});
