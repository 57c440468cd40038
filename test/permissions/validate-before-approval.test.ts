import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/core/tools/builtin/index.js';
import { z } from 'zod';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel, userMessage, type AgentEvent, type Tool } from '../../src/core/index.js';

// Issue 32 item 9: a call with invalid arguments was shown for approval and rejected only after a
// person approved it. It must be answered to the model with the validation error, never asked.
const write: Tool<{ path: string; content: string }> = {
  name: 'write_it',
  description: 'Writes.',
  parameters: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path }) => `wrote ${path}`,
};

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('arguments are validated before approval', () => {
  it('an invalid call never interrupts; the model gets the validation error', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'write_it', arguments: { path: 7 } }] }, { content: 'fixed it' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [write], approval: ['write_it'] });
    const events = await collect(new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).run([userMessage('go')], { checkpointId: 'v' }));
    expect(events.some((e) => e.action?.interrupted)).toBe(false);
    const tool = model.calls[1]!.messages.find((m) => m.role === 'tool')!;
    expect(tool.content).toMatch(/invalid arguments for 'write_it'.*path/);
  });

  it('arguments that are not JSON never interrupt either', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'write_it', arguments: '{"path": ' }] }, { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [write], approval: ['write_it'] });
    const events = await collect(new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).run([userMessage('go')], { checkpointId: 'j' }));
    expect(events.some((e) => e.action?.interrupted)).toBe(false);
    expect(model.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toMatch(/not valid JSON/);
  });

  // Issue 48 item 5: an edit_file whose `old` text is not in the file opened the approval, then failed
  // after the person approved it. Its check runs first: the model is told, nobody is asked.
  it("an edit_file whose old text is not in the file never interrupts; one that fits still asks", async () => {
    const ws = mkdtempSync(join(tmpdir(), 'adk-edit-check-'));
    writeFileSync(join(ws, 'a.txt'), 'alpha\nbeta\n');
    const model = new ScriptedChatModel([
      { toolCalls: [{ id: 'c1', name: 'edit_file', arguments: { path: 'a.txt', old: 'gamma', new: 'delta' } }] },
      { toolCalls: [{ id: 'c2', name: 'edit_file', arguments: { path: 'a.txt', old: 'beta', new: 'delta' } }] },
    ]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [editFileTool(ws)], approval: ['edit_file'] });
    const events = await collect(new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).run([userMessage('go')], { checkpointId: 'e' }));
    expect(model.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toMatch(/the text of `old` was not found in a\.txt/);
    const asked = events.filter((e) => e.action?.interrupted).flatMap((e) => e.action!.interrupted!.contexts);
    expect(asked.map((c) => (c.info as { arguments: { old: string } }).arguments.old)).toEqual(['beta']);
  });

  it('a valid call still asks', async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'write_it', arguments: { path: 'a', content: 'b' } }] }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [write], approval: ['write_it'] });
    const events = await collect(new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() }).run([userMessage('go')], { checkpointId: 'ok' }));
    expect(events.some((e) => e.action?.interrupted)).toBe(true);
  });
});

describe('a rejection and a mode', () => {
  it("a person's rejection (and its reason) reaches the model even when a mode switched on meanwhile refuses the call", async () => {
    const model = new ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'write_it', arguments: { path: 'a', content: 'b' } }] }, { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [write], approval: ['write_it'] });
    const store = new InMemoryCheckpointStore();
    const first = await collect(new Runner({ agent, checkpointStore: store }).run([userMessage('go')], { checkpointId: 'r' }));
    const id = first.find((e) => e.action?.interrupted)!.action!.interrupted!.contexts[0]!.id;
    const plan = { allows: () => false, refuses: ({ readOnly }: { readOnly: boolean }) => (readOnly ? undefined : 'Plan mode is on') };
    await collect(new Runner({ agent, checkpointStore: store }).resume('r', { targets: { [id]: { approved: false, reason: 'use pnpm' } } }, { approvalPolicy: plan }));
    expect(model.calls[1]!.messages.find((m) => m.role === 'tool')!.content).toBe('The user rejected this write_it call: use pnpm');
  });
});
