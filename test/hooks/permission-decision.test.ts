import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel, userMessage, type AgentEvent, type ApprovalPolicy, type Tool } from '../../src/core/index.js';
import { Hooks, type HooksConfig } from '../../src/core/middlewares/hooks/index.js';

/**
 * PreToolUse's `permissionDecision` as Claude Code has it: `allow` skips adk's approval prompt for
 * that call, `ask` forces it even where a grant or the mode would have allowed the call, `deny`
 * blocks. A person's deny rules (and a read-only mode) still win over a hook's allow, and a tool
 * that must always ask still asks.
 */
const shell: Tool<{ command: string }> = {
  name: 'shell',
  description: 'Run a command.',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran: ${command}`,
};
const decide = (decision: 'allow' | 'ask' | 'deny'): HooksConfig => ({
  PreToolUse: [
    { matcher: 'shell', hooks: [{ type: 'command', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"${decision}","permissionDecisionReason":"the hook says ${decision}"}}'` }] },
  ],
});

async function run(hooks: HooksConfig | undefined, opts: { approval?: string[]; policy?: ApprovalPolicy } = {}) {
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'shell', arguments: { command: 'npm test' }, id: 'c1' }] }, { content: 'ok' }]);
  const middlewares = hooks ? [new Hooks({ hooks, cwd: mkdtempSync(join(tmpdir(), 'adk-perm-hooks-')) }).middleware()] : [];
  const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [shell], approval: opts.approval ?? ['shell'], middlewares });
  const events: AgentEvent[] = [];
  const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() });
  for await (const e of runner.run([userMessage('test it')], { checkpointId: 'cp', approvalPolicy: opts.policy })) events.push(e);
  const interrupted = events.some((e) => e.action?.interrupted);
  const result = model.calls[1]?.messages.find((m) => m.role === 'tool')?.content;
  return { interrupted, result, runner, events };
}

describe('PreToolUse permissionDecision and adk approval', () => {
  it('without a hook, the approval-requiring tool asks (the baseline)', async () => {
    const r = await run(undefined);
    expect(r.interrupted).toBe(true);
  });

  it('allow: the call runs with no approval prompt', async () => {
    const r = await run(decide('allow'));
    expect(r.interrupted).toBe(false);
    expect(r.result).toBe('ran: npm test');
  });

  it('ask: the prompt comes even though a session grant allows the tool; approving it runs the call once', async () => {
    const grant: ApprovalPolicy = { allows: (c) => c.tool === 'shell' };
    expect((await run(undefined, { policy: grant })).interrupted).toBe(false);
    const r = await run(decide('ask'), { policy: grant });
    expect(r.interrupted).toBe(true);
    const id = r.events.flatMap((e) => e.action?.interrupted?.contexts ?? [])[0]!.id;
    const after: AgentEvent[] = [];
    for await (const e of r.runner.resume('cp', { targets: { [id]: { approved: true } } }, { approvalPolicy: grant })) after.push(e);
    expect(after.some((e) => e.action?.interrupted)).toBe(false);
    expect(after.some((e) => e.output?.message?.message?.content === 'ran: npm test')).toBe(true);
  });

  it('ask: even a tool that is not approval-gated asks', async () => {
    const r = await run(decide('ask'), { approval: [] });
    expect(r.interrupted).toBe(true);
  });

  it("a deny rule wins over a hook's allow", async () => {
    const denyRule: ApprovalPolicy = { allows: () => false, refuses: (c) => (c.tool === 'shell' ? 'A deny rule (shell) forbids this shell call' : undefined) };
    const r = await run(decide('allow'), { policy: denyRule });
    expect(r.interrupted).toBe(false);
    expect(r.result).toContain('A deny rule (shell) forbids this shell call');
  });

  it("a tool that must always ask (no sandbox) still asks after a hook's allow", async () => {
    const r = await run(decide('allow'), { policy: { allows: () => false, alwaysAsks: (c) => c.tool === 'shell' } });
    expect(r.interrupted).toBe(true);
  });

  it('deny blocks with its reason, and no prompt', async () => {
    const r = await run(decide('deny'));
    expect(r.interrupted).toBe(false);
    expect(r.result).toContain('the hook says deny');
  });
});
