import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent, Runner, ScriptedChatModel, type AgentEvent } from '../../src/core/index.js';
import { Hooks, type HookEvent, type HooksConfig } from '../../src/core/middlewares/hooks/index.js';

/**
 * Claude Code's Stop semantics: a Stop (or SubagentStop) hook that blocks makes the agent go on,
 * its reason reaching the model as a new message; the next Stop says `stop_hook_active: true`; adk
 * caps the continuations so a hook that always blocks cannot loop forever.
 */
const dir = () => mkdtempSync(join(tmpdir(), 'adk-stop-hooks-'));
const on = (event: HookEvent, command: string): HooksConfig => ({ [event]: [{ hooks: [{ type: 'command', command }] }] });
/** Logs each Stop input to stops.jsonl; blocks the first stop only (as a careful hook does with stop_hook_active). */
const blockFirst = `input=$(cat); echo "$input" >> stops.jsonl; case "$input" in *'"stop_hook_active":false'*) echo '{"decision":"block","reason":"run the tests before you stop"}';; esac`;

async function run(hooks: HooksConfig, replies: number, role: 'root' | 'subagent' = 'root') {
  const cwd = dir();
  const model = new ScriptedChatModel(Array.from({ length: replies }, (_, i) => ({ content: `answer ${i + 1}` })));
  const h = new Hooks({ hooks, cwd });
  const agent = new ChatModelAgent({ name: 'a', description: '', model, middlewares: [h.middleware(role)] });
  const events: AgentEvent[] = [];
  for await (const e of new Runner({ agent }).query('fix the bug')) events.push(e);
  const log = () => readFileSync(join(cwd, 'stops.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { model, events, log };
}

describe('Stop hooks that block make the agent continue', () => {
  it('the reason reaches the model in a second request; the second Stop has stop_hook_active true', async () => {
    const { model, events, log } = await run(on('Stop', blockFirst), 3);
    expect(model.calls).toHaveLength(2);
    const second = model.calls[1]!.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: 'answer 1' });
    expect(second.at(-1)).toMatchObject({ role: 'user' });
    expect(second.at(-1)!.content).toContain('run the tests before you stop');
    expect(log().map((l) => [l.hook_event_name, l.stop_hook_active])).toEqual([
      ['Stop', false],
      ['Stop', true],
    ]);
    expect(events.some((e) => e.error)).toBe(false);
    // The reason is part of the run's history (the session keeps what the model was told).
    expect(events.some((e) => e.output?.message?.role === 'user' && e.output.message.message?.content.includes('run the tests before you stop'))).toBe(true);
  });

  it('exit code 2 blocks with stderr as the reason; a hook that always blocks is capped', async () => {
    const { model, events } = await run(on('Stop', 'cat >/dev/null; echo "not yet: lint fails" >&2; exit 2'), 30);
    expect(model.calls[1]!.messages.at(-1)!.content).toContain('not yet: lint fails');
    // 1 answer and 8 continuations (Claude Code's cap), then the run ends normally.
    expect(model.calls).toHaveLength(9);
    expect(events.some((e) => e.error)).toBe(false);
  });

  it('continue: false wins over block: the agent stops', async () => {
    const { model } = await run(on('Stop', `cat >/dev/null; echo '{"decision":"block","reason":"more","continue":false,"stopReason":"enough"}'`), 3);
    expect(model.calls).toHaveLength(1);
  });

  it('a sub-agent continues on a SubagentStop block (and a Stop hook does not touch it)', async () => {
    const { model, log } = await run({ ...on('SubagentStop', blockFirst), ...on('Stop', 'echo \'{"decision":"block","reason":"root only"}\'') }, 3, 'subagent');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]!.messages.at(-1)!.content).toContain('run the tests before you stop');
    expect(log().map((l) => [l.hook_event_name, l.stop_hook_active])).toEqual([
      ['SubagentStop', false],
      ['SubagentStop', true],
    ]);
  });
});
