import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { CancelledError, IncompleteReplyError } from '../../src/core/errors.js';
import { RunStatusTracker } from '../../src/core/run-status.js';

const ev = (e: Partial<AgentEvent>): AgentEvent => ({ agentName: 'a', runPath: ['a'], ...e }) as AgentEvent;
const question = { id: 'q1', address: 'a;tool:c1', info: 'approve?', isRootCause: true } as never;
const savedCancel = { id: 'c', address: 'a', info: 'cancelled', isRootCause: true, cancelled: true } as never;
const stop = (contexts: unknown[], cancelled = false) => ev({ action: { interrupted: { contexts, ...(cancelled ? { cancelled: true } : {}) } } as never });

// The rules RunStream's result and the CLI's/server's summaries share (src/core/run-status.ts).
describe('how a run ended', () => {
  it('completed; interrupted with its questions; a cancel saved at a safe point is cancelled, not a question', () => {
    expect(new RunStatusTracker().finish()).toBe('completed');
    const asked = new RunStatusTracker();
    expect(asked.see(stop([question])).interrupts).toEqual([question]);
    expect(asked.finish()).toBe('interrupted');
    const saved = new RunStatusTracker();
    expect(saved.see(stop([savedCancel, question], true)).interrupts).toBeUndefined();
    expect(saved.finish()).toBe('cancelled');
    expect(saved.interrupts).toEqual([question]);
    expect(saved.cancelledAtCheckpoint).toBe(true);
  });

  it('errors: a cut-off reply is incomplete with its reason; an abort is a cancel; an abort after a real question keeps the question', () => {
    const cut = new RunStatusTracker();
    expect(cut.see(ev({ error: new IncompleteReplyError('length') })).failure).toBeInstanceOf(IncompleteReplyError);
    expect([cut.finish(), cut.incompleteReason]).toEqual(['incomplete', 'length']);
    const failed = new RunStatusTracker();
    failed.see(ev({ error: new Error('boom') }));
    expect([failed.finish(), failed.error?.message]).toEqual(['error', 'boom']);
    const aborted = new RunStatusTracker();
    expect(aborted.see(ev({ error: new CancelledError('run cancelled') })).failure).toBeUndefined();
    expect(aborted.finish()).toBe('cancelled');
    const waiting = new RunStatusTracker();
    waiting.see(stop([question]));
    waiting.see(ev({ error: new CancelledError('run cancelled') }));
    expect(waiting.finish()).toBe('interrupted');
    // The caller's signal: an error that arrives after it fired is the cancel's.
    const signalled = new RunStatusTracker();
    expect(signalled.see(ev({ error: new Error('socket hang up') }), true).failure).toBeUndefined();
    expect(signalled.finish(true)).toBe('cancelled');
  });
});
