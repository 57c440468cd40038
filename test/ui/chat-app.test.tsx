import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import type { InterruptContext, InterruptDetails } from '../../src/core/interrupt.js';
import { ChatApp, type ChatAppProps } from '../../src/ui/app/ChatApp.js';
import { assistantEvent, eventsOf, KEY, manualStream, plain, streamEvent, tick, toolEvent, type } from './helpers.js';

afterEach(() => cleanup());

// Frames and calls are awaited, not read after a fixed pause: under a loaded CI a pause was too short
// (ci22, Node 20: the typed message's turn had not started 30 ms after Enter).
const POLL = { timeout: 5_000, interval: 10 };
const seen = (frame: () => string) => expect.poll(frame, POLL);

const interruptEvent = (agent: string, contexts: InterruptContext[]): AgentEvent => ({
  agentName: agent,
  runPath: [agent],
  action: { interrupted: { contexts, signal: {} as never } },
});

const approvalCtx = (id: string, callId: string, tool = 'shell'): InterruptContext => ({
  id,
  address: `agent:coder;tool:${tool}:${callId}`,
  info: { kind: 'approval', message: `Allow ${tool}?`, tool, arguments: { command: 'ls' } } satisfies InterruptDetails,
});

const callsShell = (callId: string) =>
  assistantEvent('coder', ['coder'], { role: 'assistant', content: '', toolCalls: [{ id: callId, function: { name: 'shell', arguments: '{"command":"ls"}' } }] });

function app(props: Partial<ChatAppProps> = {}) {
  const onExit = vi.fn();
  const runTurn = vi.fn<ChatAppProps['runTurn']>(props.runTurn ?? (() => eventsOf()));
  const answerInterrupts = vi.fn<ChatAppProps['answerInterrupts']>(props.answerInterrupts ?? (() => eventsOf()));
  const r = render(<ChatApp columns={80} rows={40} frameMs={0} promptArmMs={0} onExit={onExit} {...props} runTurn={runTurn} answerInterrupts={answerInterrupts} />);
  return { r, onExit, runTurn, answerInterrupts, frame: () => plain(r.lastFrame()) };
}

describe('ChatApp', () => {
  it('sends the typed message, streams the reply, then takes input again', async () => {
    const s = manualStream();
    const { r, runTurn, frame } = app({ runTurn: () => eventsOf(streamEvent('assistant', ['assistant'], s.stream)), model: 'demo', sessionId: 'sess-1234567890' });
    await tick();
    await seen(frame).toContain('demo · session sess-123');
    await type(r.stdin, 'Hi there', KEY.enter);
    await expect.poll(() => runTurn.mock.calls.length, POLL).toBe(1);
    expect(runTurn.mock.calls[0][0]).toBe('Hi there');
    expect(runTurn.mock.calls[0][1]).toBeInstanceOf(AbortSignal);
    s.push('Hello! How');
    await tick(60);
    await seen(frame).toContain('› Hi there');
    await seen(frame).toContain('Hello! How');
    await seen(frame).toContain('esc to cancel');
    s.push({ content: ' can I help?', usage: { promptTokens: 1200, completionTokens: 34, totalTokens: 1234 } });
    s.close();
    await tick(60);
    await seen(frame).toContain('Hello! How can I help?');
    await seen(frame).not.toContain('esc to cancel');
    await seen(frame).toContain('↑1.2k ↓34');
  });

  it('asks for approval inline and resumes with the decision', async () => {
    const { r, answerInterrupts, frame } = app({
      runTurn: () => eventsOf(callsShell('c1'), interruptEvent('coder', [approvalCtx('i1', 'c1')])),
      answerInterrupts: () => eventsOf(toolEvent('coder', ['coder'], { role: 'tool', content: 'a.txt', toolCallId: 'c1', toolName: 'shell' })),
    });
    await tick();
    await type(r.stdin, 'list files', KEY.enter);
    await tick(60);
    await seen(frame).toContain('coder wants to run shell');
    await seen(frame).toContain('○ shell command: "ls" · waiting for you');
    await type(r.stdin, 'y');
    await tick(60);
    await expect.poll(() => answerInterrupts.mock.calls.length, POLL).toBe(1);
    expect(answerInterrupts.mock.calls[0][0]).toEqual({ i1: { approved: true } });
    await seen(frame).toContain('✓ approved shell');
    await seen(frame).toContain('✓ shell command: "ls"');
    await seen(frame).toContain('⎿ a.txt');
    await seen(frame).not.toContain('wants to run');
  });

  it('a = always: later approvals of that tool are answered without asking', async () => {
    let turn = 0;
    const { r, answerInterrupts, frame } = app({
      runTurn: () => {
        turn++;
        return eventsOf(callsShell(`c${turn}`), interruptEvent('coder', [approvalCtx(`i${turn}`, `c${turn}`)]));
      },
    });
    await tick();
    await type(r.stdin, 'one', KEY.enter);
    await tick(60);
    await type(r.stdin, 'a');
    await type(r.stdin, 'y');
    await tick(60);
    expect(answerInterrupts.mock.calls[0][0]).toEqual({ i1: { approved: true } });
    await type(r.stdin, 'two', KEY.enter);
    await tick(80);
    await expect.poll(() => answerInterrupts.mock.calls.length, POLL).toBe(2);
    expect(answerInterrupts.mock.calls[1][0]).toEqual({ i2: { approved: true } });
    await seen(frame).toContain('(allowed this session)');
    await seen(frame).not.toContain('wants to run');
  });

  it('asks several parallel interrupts one after another, then resumes once with all answers', async () => {
    const contexts: InterruptContext[] = [
      approvalCtx('i1', 'c1'),
      { id: 'i2', address: 'agent:b;tool:ask_user:c2', info: { kind: 'input', message: 'Which city?' } },
      { id: 'i3', address: 'agent:planner', info: { kind: 'plan_review', message: 'Review the plan', plan: ['step one', 'step two'] } },
    ];
    const { r, answerInterrupts, frame } = app({ runTurn: () => eventsOf(interruptEvent('par', contexts)) });
    await tick();
    await type(r.stdin, 'go', KEY.enter);
    await tick(60);
    await seen(frame).toContain('1/3');
    await type(r.stdin, 'n', 'not now', KEY.enter);
    await seen(frame).toContain('Which city?');
    await seen(frame).toContain('2/3');
    await type(r.stdin, 'Oslo', KEY.enter);
    await seen(frame).toContain('1. step one');
    await type(r.stdin, 'f', 'fewer steps', KEY.enter);
    await tick(60);
    await expect.poll(() => answerInterrupts.mock.calls.length, POLL).toBe(1);
    expect(answerInterrupts.mock.calls[0][0]).toEqual({
      i1: { approved: false, reason: 'not now' },
      i2: 'Oslo',
      i3: { accept: false, feedback: 'fewer steps' },
    });
  });

  it('opens the prompts of interrupts left by an earlier process at once', async () => {
    const { r, answerInterrupts, frame } = app({ initialInterrupts: [{ id: 'q', address: 'agent:a;tool:ask_user:c1', info: { kind: 'input', message: 'Name?' } }] });
    await tick();
    await seen(frame).toContain('Name?');
    await type(r.stdin, 'Ada', KEY.enter);
    await tick(40);
    expect(answerInterrupts.mock.calls[0][0]).toEqual({ q: 'Ada' });
  });

  it('Esc cancels a running turn', async () => {
    let signal: AbortSignal | undefined;
    const s = manualStream();
    const { r, frame } = app({
      runTurn: (_t, sig) => {
        signal = sig;
        sig.addEventListener('abort', () => s.close(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        return eventsOf(streamEvent('assistant', ['assistant'], s.stream), () => new Promise<void>((res) => sig.addEventListener('abort', () => res())));
      },
    });
    await tick();
    await type(r.stdin, 'long task', KEY.enter);
    s.push('Working on');
    await tick(40);
    await type(r.stdin, KEY.esc);
    await tick(80);
    expect(signal?.aborted).toBe(true);
    await seen(frame).toContain('Working on');
    await seen(frame).toContain('Cancelled.');
    await seen(frame).not.toContain('esc to cancel');
  });

  it('Ctrl-C clears the input and arms; a second Ctrl-C within 2 s exits', async () => {
    const { r, onExit, frame } = app();
    await tick();
    await type(r.stdin, 'draft');
    await type(r.stdin, KEY.ctrlC);
    await seen(frame).not.toContain('draft');
    await seen(frame).toContain('Press Ctrl-C again to exit');
    expect(onExit).not.toHaveBeenCalled();
    await type(r.stdin, KEY.ctrlC);
    await expect.poll(() => onExit.mock.calls.length, POLL).toBe(1);
    expect(onExit).toHaveBeenCalledExactlyOnceWith('ctrl-c');
  });

  it('Ctrl-C during a run cancels it instead of exiting', async () => {
    let signal: AbortSignal | undefined;
    const { r, onExit } = app({
      runTurn: (_t, sig) => {
        signal = sig;
        return eventsOf(() => new Promise<void>((res) => sig.addEventListener('abort', () => res())));
      },
    });
    await tick();
    await type(r.stdin, 'x', KEY.enter, KEY.ctrlC);
    await tick(40);
    expect(signal?.aborted).toBe(true);
    expect(onExit).not.toHaveBeenCalled();
  });

  it('Ctrl-D exits on an empty input only', async () => {
    const { r, onExit } = app();
    await tick();
    await type(r.stdin, 'a', KEY.ctrlD);
    expect(onExit).not.toHaveBeenCalled();
    await type(r.stdin, KEY.backspace, KEY.ctrlD);
    await expect.poll(() => onExit.mock.calls.length, POLL).toBe(1);
    expect(onExit).toHaveBeenCalledExactlyOnceWith('ctrl-d');
  });

  it('runs slash commands: the host first, then the built-in ones', async () => {
    const onCommand = vi.fn((name: string, _args: string, ui: { info: (t: string) => void }) => {
      if (name !== '/model') return false;
      ui.info('model set');
      return true;
    });
    const { r, onExit, runTurn, frame } = app({ onCommand });
    await tick();
    await type(r.stdin, '/model gpt-4o', KEY.enter);
    await tick(40);
    expect(onCommand).toHaveBeenCalledWith('/model', 'gpt-4o', expect.anything());
    await seen(frame).toContain('model set');
    await type(r.stdin, '/help', KEY.enter);
    await tick(40);
    await seen(frame).toContain('/sessions');
    // The help paragraph wraps at the terminal's width.
    expect(frame().replace(/\s+/g, ' ')).toContain('Ctrl-C twice exits');
    await type(r.stdin, '/bogus', KEY.enter);
    await tick(40);
    await seen(frame).toContain('Unknown command /bogus');
    expect(runTurn).not.toHaveBeenCalled();
    await type(r.stdin, '/exit', KEY.enter);
    await tick(40);
    await expect.poll(() => onExit.mock.calls.length, POLL).toBe(1);
    expect(onExit).toHaveBeenCalledExactlyOnceWith('command');
  });

  it('keeps its own input history and reports each entry to the host', async () => {
    const onHistoryAdd = vi.fn();
    const { r, frame } = app({ history: ['older'], onHistoryAdd });
    await tick();
    await type(r.stdin, '/cost', KEY.enter);
    await tick(40);
    expect(onHistoryAdd).toHaveBeenCalledWith('/cost');
    await type(r.stdin, KEY.up);
    expect(frame().split('\n').filter((l) => l.startsWith('› ')).at(-1)).toBe('› /cost');
    await type(r.stdin, KEY.up);
    expect(frame().split('\n').filter((l) => l.startsWith('› ')).at(-1)).toBe('› older');
  });

  it('Ctrl-O opens the transcript view (issue 32): Enter expands the last collapsed result in full, Esc returns', async () => {
    const long = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\n');
    const { r } = app({
      runTurn: () => eventsOf(callsShell('c1'), toolEvent('coder', ['coder'], { role: 'tool', content: long, toolCallId: 'c1', toolName: 'shell' })),
    });
    await tick();
    await type(r.stdin, 'go', KEY.enter);
    await tick(60);
    const all = () => plain(r.frames.join('\n'));
    expect(all()).toContain('row 1');
    expect(all()).not.toContain('row 12');
    r.stdin.write('\u000f');
    await tick(60);
    expect(plain(r.lastFrame())).toContain('Transcript (');
    expect(all()).not.toContain('row 12');
    r.stdin.write('\r');
    await tick(60);
    expect(all()).toContain('row 12');
    r.stdin.write('\u001b');
    await tick(80);
    expect(plain(r.lastFrame())).not.toContain('Transcript (');
  });

  it('shows the transfer path while agents hand over', async () => {
    const gate = manualStream();
    const { r, frame } = app({
      runTurn: () =>
        eventsOf(
          { agentName: 'lead', runPath: ['team', 'lead'], action: { transferToAgent: { destAgentName: 'researcher' } } },
          streamEvent('researcher', ['team', 'lead', 'researcher'], gate.stream),
        ),
    });
    await tick();
    await type(r.stdin, 'research', KEY.enter);
    gate.push('Looking');
    await tick(60);
    await seen(frame).toContain('↳ lead → researcher');
    await seen(frame).toContain('team ▸ lead ▸ researcher');
    gate.close();
  });
});
