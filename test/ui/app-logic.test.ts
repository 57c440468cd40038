import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerNote, autoAnswer, resumeData } from '../../src/ui/app/answers.js';
import { parseCommand } from '../../src/ui/app/commands.js';
import { ExitGate } from '../../src/ui/app/exit-gate.js';
import { FrameBatcher } from '../../src/ui/hooks/frame-batcher.js';
import { DEFAULT_SLASH_COMMANDS } from '../../src/ui/input/slash-commands.js';
import type { ViewAction } from '../../src/ui/state/actions.js';
import { coalesceViewActions } from '../../src/ui/state/coalesce.js';
import { toolCallIdOfAddress, toolResultStatus } from '../../src/ui/state/tool-status.js';
import type { PendingInterrupt } from '../../src/ui/state/transcript.js';

afterEach(() => vi.useRealTimers());

describe('ExitGate', () => {
  it('exits only on a second press within the window', () => {
    let now = 0;
    const gate = new ExitGate(2000, () => now);
    expect(gate.press()).toBe('armed');
    now = 1500;
    expect(gate.press()).toBe('exit');
    now = 5000;
    expect(gate.press()).toBe('armed');
    now = 7500;
    expect(gate.armed).toBe(false);
    expect(gate.press()).toBe('armed');
  });
});

describe('FrameBatcher', () => {
  it('hands over queued actions once per frame, in order', () => {
    vi.useFakeTimers();
    const applied: number[][] = [];
    const b = new FrameBatcher<number>((a) => applied.push(a), 33);
    for (let i = 0; i < 100; i++) b.push(i);
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toHaveLength(100);
    b.push(100);
    b.push(101);
    vi.advanceTimersByTime(10);
    expect(applied).toHaveLength(1);
    vi.advanceTimersByTime(30);
    expect(applied).toEqual([applied[0], [100, 101]]);
  });

  it('flushes at once on request and drops everything on dispose', () => {
    vi.useFakeTimers();
    const applied: string[][] = [];
    const b = new FrameBatcher<string>((a) => applied.push(a), 33);
    b.push('a');
    b.flush();
    expect(applied).toEqual([['a']]);
    b.push('b');
    b.dispose();
    vi.advanceTimersByTime(100);
    expect(applied).toEqual([['a']]);
  });
});

describe('coalesceViewActions', () => {
  it('merges consecutive deltas of one stream, keeping other actions in place', () => {
    const actions: ViewAction[] = [
      { type: 'streamDelta', streamId: 's1', content: 'a' },
      { type: 'streamDelta', streamId: 's1', content: 'b' },
      { type: 'streamDelta', streamId: 's2', content: 'x' },
      { type: 'streamDelta', streamId: 's1', content: 'c' },
      { type: 'streamDelta', streamId: 's1', reasoning: 'r' },
      { type: 'user', text: 'u' },
    ];
    expect(coalesceViewActions(actions)).toEqual([
      { type: 'streamDelta', streamId: 's1', content: 'ab', reasoning: undefined, toolNames: undefined },
      { type: 'streamDelta', streamId: 's2', content: 'x' },
      { type: 'streamDelta', streamId: 's1', content: 'c' },
      { type: 'streamDelta', streamId: 's1', reasoning: 'r' },
      { type: 'user', text: 'u' },
    ]);
  });
});

describe('tool status', () => {
  it('reads the status from the result message', () => {
    expect(toolResultStatus({ content: 'ok' })).toBe('done');
    expect(toolResultStatus({ content: 'failed', isError: true })).toBe('error');
    expect(toolResultStatus({ content: 'The user rejected this shell call.', isError: true })).toBe('rejected');
  });

  it('finds the call id of a tool interrupt point', () => {
    expect(toolCallIdOfAddress('agent:root;agent:coder;tool:shell:call_1')).toBe('call_1');
    expect(toolCallIdOfAddress('agent:root;agent:coder')).toBeUndefined();
  });
});

describe('answers', () => {
  const approval: PendingInterrupt = { id: 'i1', address: 'a', agent: 'coder', info: { kind: 'approval', message: 'Allow shell?', tool: 'shell', arguments: {} } };

  it('turns prompt answers into the resume data the runtime reads', () => {
    expect(resumeData({ kind: 'approval', choice: { approved: true } })).toEqual({ approved: true });
    expect(resumeData({ kind: 'approval', choice: { approved: true, always: true } })).toEqual({ approved: true });
    expect(resumeData({ kind: 'approval', choice: { approved: true, arguments: { a: 1 } } })).toEqual({ approved: true, arguments: { a: 1 } });
    expect(resumeData({ kind: 'approval', choice: { approved: false, reason: 'no' } })).toEqual({ approved: false, reason: 'no' });
    expect(resumeData({ kind: 'approval', choice: { approved: false } })).toEqual({ approved: false });
    expect(resumeData({ kind: 'input', text: 'Paris' })).toBe('Paris');
    expect(resumeData({ kind: 'plan_review', decision: { accept: false, feedback: 'shorter' } })).toEqual({ accept: false, feedback: 'shorter' });
  });

  it('answers approvals of tools allowed for the session without asking', () => {
    expect(autoAnswer(approval, new Set(['shell']))).toEqual({ kind: 'approval', choice: { approved: true } });
    expect(autoAnswer(approval, new Set(['grep']))).toBeUndefined();
    expect(answerNote(approval, { kind: 'approval', choice: { approved: false, reason: 'risky' } })).toBe('⊘ rejected shell: risky');
  });

  it('recognises known commands; an unknown /word alone is a command, a sentence is not', () => {
    expect(parseCommand('/help', DEFAULT_SLASH_COMMANDS)).toEqual({ name: '/help', args: '' });
    expect(parseCommand('/nope', DEFAULT_SLASH_COMMANDS)).toEqual({ name: '/nope', args: '' });
    // Issue 15: a unique prefix alone is the command; a lone `/` is help; a prefix with words stays a message.
    expect(parseCommand('/he', DEFAULT_SLASH_COMMANDS)).toEqual({ name: '/help', args: '' });
    expect(parseCommand('/', DEFAULT_SLASH_COMMANDS)).toEqual({ name: '/help', args: '' });
    expect(parseCommand('/ex is my ex', DEFAULT_SLASH_COMMANDS)).toBeUndefined();
    expect(parseCommand('/nope is not a command', DEFAULT_SLASH_COMMANDS)).toBeUndefined();
  });
});

describe('cost (issue 15)', () => {
  it('list prices by name, a provider prefix ignored; dollars for the session and the last turn', async () => {
    const { knownPrice, costUsd, formatUsd } = await import('../../src/core/models/pricing.js');
    const { costText } = await import('../../src/ui/app/commands.js');
    expect(knownPrice('gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(knownPrice('openai/gpt-4o')).toMatchObject({ input: 2.5, output: 10 });
    expect(knownPrice('claude-sonnet-4-5')).toEqual({ input: 3, output: 15, source: "adk's bundled list price for claude-sonnet-4-5 (providers' published prices, 2025)" });
    expect(knownPrice('my-local-model')).toBeUndefined();
    expect(formatUsd(costUsd({ promptTokens: 2_000_000, completionTokens: 1_000_000 }, { input: 2.5, output: 10 }))).toBe('$15.00');
    expect(costText({ promptTokens: 1000, completionTokens: 10 }, undefined, undefined)).toContain('No price is known');
    // /cost says where the price came from.
    expect(costText({ promptTokens: 1000, completionTokens: 10 }, undefined, knownPrice('gpt-4o'))).toContain("from adk's bundled list price for gpt-4o (providers' published prices, 2025)");
    expect(costText({ promptTokens: 1000, completionTokens: 10 }, undefined, { input: 1, output: 2, source: "price: on the models: entry 'fast'" })).toContain("from price: on the models: entry 'fast'");
  });
});
