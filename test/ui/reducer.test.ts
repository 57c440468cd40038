import { describe, expect, it } from 'vitest';
import type { ViewAction } from '../../src/ui/state/actions.js';
import { viewReducer } from '../../src/ui/state/reducer.js';
import { canMoveToBackground } from '../../src/ui/state/tool-reducer.js';
import { STREAM_COMMIT_MS } from '../../src/ui/state/stream-reducer.js';
import { initialViewState, type TranscriptItem, type ViewState } from '../../src/ui/state/transcript.js';

const run = (...actions: ViewAction[]): ViewState => actions.reduce(viewReducer, initialViewState());
const start = (streamId: string, agent = 'lead', runPath = ['lead']): ViewAction => ({ type: 'streamStart', streamId, lane: runPath.join('/'), agent, runPath });
const delta = (streamId: string, content: string): ViewAction => ({ type: 'streamDelta', streamId, content });
const texts = (s: ViewState) => s.committed.filter((x) => x.kind === 'assistant').map((x) => (x as Extract<TranscriptItem, { kind: 'assistant' }>).text);

describe('viewReducer: streamed text', () => {
  it('commits whole paragraphs and keeps the unfinished one live', () => {
    const s = run(start('s1'), delta('s1', 'Hello wor'), delta('s1', 'ld.\n\nSecond'), delta('s1', ' para'));
    expect(texts(s)).toEqual(['Hello world.']);
    expect(s.live).toHaveLength(1);
    expect(s.live[0]).toMatchObject({ kind: 'message', agent: 'lead', text: 'Second para', committedChunks: 1 });
  });

  it('moves the rest into the transcript when the stream ends; only the first piece has a header', () => {
    const s = run(start('s1'), delta('s1', 'One.\n\nTwo'), { type: 'streamEnd', streamId: 's1', outcome: 'done', message: { role: 'assistant', content: 'One.\n\nTwo' } });
    expect(texts(s)).toEqual(['One.', 'Two']);
    const pieces = s.committed.filter((x) => x.kind === 'assistant');
    expect(pieces.map((x) => x.kind === 'assistant' && x.showHeader)).toEqual([true, false]);
    expect(s.live).toEqual([]);
  });

  it('keeps a code block live until its fence closes', () => {
    const s = run(start('s1'), delta('s1', 'Code:\n```js\nconst a = 1;\n\n'), delta('s1', 'const b = 2;\n'));
    expect(texts(s)).toEqual(['Code:']);
    expect(s.live[0]).toMatchObject({ text: '```js\nconst a = 1;\n\nconst b = 2;\n' });
    const closed = [delta('s1', '```\n\nDone')].reduce(viewReducer, s);
    expect(texts(closed)).toEqual(['Code:', '```js\nconst a = 1;\n\nconst b = 2;\n```']);
  });

  it('commits the reasoning as a thought when the answer starts', () => {
    const s = run(start('s1'), { type: 'streamDelta', streamId: 's1', reasoning: 'Let me think' }, { type: 'streamDelta', streamId: 's1', reasoning: ' hard.' });
    expect(s.committed).toEqual([]);
    expect(s.live[0]).toMatchObject({ thought: 'Let me think hard.' });
    const answered = viewReducer(s, delta('s1', 'Answer'));
    expect(answered.committed).toMatchObject([{ kind: 'thought', agent: 'lead', text: 'Let me think hard.' }]);
    expect(answered.live[0]).toMatchObject({ thoughtCommitted: true, text: 'Answer' });
  });

  it('drops the partial text of a stream that will be retried, so it is not shown twice', () => {
    const s = run(
      start('s1'),
      delta('s1', 'The answer is'),
      { type: 'streamEnd', streamId: 's1', outcome: 'retry' },
      { type: 'retry', agent: 'lead', attempt: 1, delayMs: 500, error: 'HTTP 503' },
    );
    expect(s.retry).toMatchObject({ attempt: 1, error: 'HTTP 503' });
    const after = [
      start('s2'),
      delta('s2', 'The answer is 42.'),
      { type: 'streamEnd', streamId: 's2', outcome: 'done', message: { role: 'assistant', content: 'The answer is 42.' } } as ViewAction,
    ].reduce(viewReducer, s);
    expect(texts(after)).toEqual(['The answer is 42.']);
    // The retry was transient: a call that recovered leaves no line behind (issue 15).
    expect(after.committed.map((x) => x.kind)).toEqual(['assistant']);
    expect(after.retry).toBeUndefined();
    expect(after.live).toEqual([]);
  });

  it('says so when a failed attempt had already committed paragraphs', () => {
    const s = run(start('s1'), delta('s1', 'Para one.\n\nPara'), { type: 'streamEnd', streamId: 's1', outcome: 'retry' });
    expect(texts(s)).toEqual(['Para one.']);
    expect(s.committed[1]).toMatchObject({ kind: 'info', tone: 'muted' });
    expect(s.committed[1].kind === 'info' && s.committed[1].text).toMatch(/failed attempt/);
  });

  it('gives parallel streams their own live items and headers when their pieces interleave', () => {
    const s = run(
      start('a', 'alpha', ['par', 'alpha']),
      start('b', 'beta', ['par', 'beta']),
      delta('a', 'A1'),
      delta('b', 'B1'),
      delta('a', '.\n\nA2'),
      delta('b', '.\n\nB2'),
      delta('a', '.\n\nA3'),
    );
    expect(s.live.map((x) => x.kind === 'message' && [x.agent, x.lane, x.text])).toEqual([
      ['alpha', 'par/alpha', 'A3'],
      ['beta', 'par/beta', 'B2'],
    ]);
    const pieces = s.committed.map((x) => x.kind === 'assistant' && [x.agent, x.text, x.showHeader]);
    expect(pieces).toEqual([
      ['alpha', 'A1.', true],
      ['beta', 'B1.', true],
      ['alpha', 'A2.', true],
    ]);
  });

  it('adds up token usage from finished messages', () => {
    const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const s = run(
      { type: 'message', agent: 'a', runPath: ['a'], message: { role: 'assistant', content: 'x', usage } },
      start('s1'),
      { type: 'streamEnd', streamId: 's1', outcome: 'done', message: { role: 'assistant', content: '', usage } },
    );
    expect(s.usage).toEqual({ promptTokens: 20, completionTokens: 10 });
  });
});

describe('viewReducer: pacing moves into the transcript', () => {
  const at = (streamId: string, content: string, ms: number): ViewAction => ({ type: 'streamDelta', streamId, content, at: ms });
  const liveText = (s: ViewState) => s.live.map((x) => x.kind === 'message' && x.text);

  it('keeps paragraphs finished soon after the last move live, then moves them together', () => {
    const t0 = 1_000_000;
    let s = run(start('s1'), at('s1', 'One.\n\nTw', t0));
    expect(texts(s)).toEqual(['One.']);
    s = [at('s1', 'o.\n\nThree.\n\nFo', t0 + 50), at('s1', 'ur', t0 + STREAM_COMMIT_MS - 1)].reduce(viewReducer, s);
    // Nothing is lost: the waiting paragraphs are still on screen, in the live tail.
    expect(texts(s)).toEqual(['One.']);
    expect(liveText(s)).toEqual(['Two.\n\nThree.\n\nFour']);
    s = viewReducer(s, at('s1', '.', t0 + STREAM_COMMIT_MS));
    expect(texts(s)).toEqual(['One.', 'Two.\n\nThree.']);
    expect(liveText(s)).toEqual(['Four.']);
    expect(s.committed.map((x) => x.kind === 'assistant' && x.showHeader)).toEqual([true, false]);
  });

  it('moves waiting paragraphs of every lane when the time comes, and all the rest at the end', () => {
    const t0 = 1_000_000;
    const s = run(
      start('a', 'alpha', ['par', 'alpha']),
      start('b', 'beta', ['par', 'beta']),
      at('a', 'A1.\n\nA2', t0),
      at('b', 'B1.\n\nB2', t0 + 10),
      at('a', '.\n\nA3', t0 + STREAM_COMMIT_MS),
    );
    expect(texts(s)).toEqual(['A1.', 'A2.', 'B1.']);
    expect(liveText(s)).toEqual(['A3', 'B2']);
    const ended = [{ type: 'streamEnd', streamId: 'a', outcome: 'done' } as ViewAction, { type: 'streamEnd', streamId: 'b', outcome: 'done' } as ViewAction].reduce(viewReducer, s);
    expect(texts(ended)).toEqual(['A1.', 'A2.', 'B1.', 'A3', 'B2']);
    expect(ended.live).toEqual([]);
  });

  it('commitLive moves what a paused stream has finished, keeping an open code block live', () => {
    const t0 = 1_000_000;
    const s = run(start('s1'), at('s1', 'One.\n\nTwo.\n\n', t0), at('s1', 'Three.\n\n```js\nx;\n\n', t0 + 10));
    expect(texts(s)).toEqual(['One.\n\nTwo.']);
    const moved = viewReducer(s, { type: 'commitLive', at: t0 + 300 });
    expect(texts(moved)).toEqual(['One.\n\nTwo.', 'Three.']);
    expect(liveText(moved)).toEqual(['```js\nx;\n\n']);
    expect(moved.streamCommitAt).toBe(t0 + 300);
    // Nothing left to move: the same state.
    expect(viewReducer(moved, { type: 'commitLive' }).committed).toBe(moved.committed);
  });
});

describe('viewReducer: tool calls', () => {
  const calls: ViewAction = {
    type: 'message',
    agent: 'lead',
    runPath: ['lead'],
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
        { id: 'c2', function: { name: 'shell', arguments: '{"command":"rm -rf /"}' } },
        { id: 'c3', function: { name: 'grep', arguments: '{}' } },
      ],
    },
  };
  const result = (id: string, name: string, content: string, isError?: boolean): ViewAction => ({
    type: 'message',
    agent: 'lead',
    runPath: ['lead'],
    message: { role: 'tool', content, toolCallId: id, toolName: name, ...(isError ? { isError } : {}) },
  });

  it('shows rows as running once the calling message is complete', () => {
    const s = run(calls);
    expect(s.live.map((x) => x.kind === 'tool' && [x.call.callId, x.call.name, x.call.status])).toEqual([
      ['c1', 'read_file', 'running'],
      ['c2', 'shell', 'running'],
      ['c3', 'grep', 'running'],
    ]);
  });

  it('offers Ctrl-B only while a command is running that the shell tool said can be moved (issue 15)', () => {
    const listed = run(calls);
    // Listed as running, but the process may not have started yet: Ctrl-B would move nothing.
    expect(canMoveToBackground(listed)).toBe(false);
    const output = run(calls, { type: 'toolOutput', agent: 'lead', callId: 'c2', tail: 'building…' });
    expect(canMoveToBackground(output)).toBe(false);
    const started = run(calls, { type: 'toolOutput', agent: 'lead', callId: 'c2', tail: '', background: true });
    expect(canMoveToBackground(started)).toBe(true);
    // The notice's empty tail is not output: the row shows no empty progress line.
    expect(started.live.some((x) => x.kind === 'tool' && x.call.progress !== undefined)).toBe(false);
    expect(canMoveToBackground(run(calls, { type: 'toolOutput', agent: 'lead', callId: 'c2', tail: '', background: true }, result('c2', 'shell', 'moved')))).toBe(false);
  });

  it('settles each row from its result: done, rejected, error', () => {
    const s = run(
      calls,
      result('c2', 'shell', 'The user rejected this shell call: too dangerous', true),
      result('c1', 'read_file', 'hello'),
      result('c3', 'grep', 'bad pattern', true),
    );
    expect(s.live).toEqual([]);
    // In call order, whatever order the results came in (issue 15, defect 5).
    expect(s.committed.map((x) => x.kind === 'tool' && [x.call.callId, x.call.status, x.call.result])).toEqual([
      ['c1', 'done', 'hello'],
      ['c2', 'rejected', 'The user rejected this shell call: too dangerous'],
      ['c3', 'error', 'bad pattern'],
    ]);
  });

  it('marks a row waiting for approval as pending, then running again once answered', () => {
    const waiting = run(calls, {
      type: 'interrupted',
      agent: 'team',
      contexts: [{ id: 'i1', address: 'agent:team;agent:lead;tool:shell:c2', info: { kind: 'approval', message: 'Allow shell?', tool: 'shell', arguments: {} } }],
    });
    const row = waiting.live.find((x) => x.kind === 'tool' && x.call.callId === 'c2');
    expect(row?.kind === 'tool' && row.call.status).toBe('pending');
    expect(waiting.interrupts).toEqual([
      { id: 'i1', address: 'agent:team;agent:lead;tool:shell:c2', agent: 'lead', toolCallId: 'c2', info: { kind: 'approval', message: 'Allow shell?', tool: 'shell', arguments: {} } },
    ]);
    const ended = viewReducer(waiting, { type: 'runEnd' });
    expect(ended.live.map((x) => x.kind === 'tool' && x.call.callId)).toEqual(['c2']);
    expect(ended.committed.filter((x) => x.kind === 'tool')).toHaveLength(2);

    const answered = viewReducer(ended, { type: 'interruptsAnswered' });
    expect(answered.interrupts).toEqual([]);
    expect(answered.live[0].kind === 'tool' && answered.live[0].call.status).toBe('running');

    const dismissed = viewReducer(ended, { type: 'interruptsDismissed' });
    expect(dismissed.live).toEqual([]);
    expect(dismissed.committed.at(-1)).toMatchObject({ kind: 'tool', call: { callId: 'c2', status: 'pending' } });
  });

  it('closes rows left running when a run is cancelled', () => {
    const s = run(calls, { type: 'runEnd', cancelled: true });
    expect(s.live).toEqual([]);
    expect(s.committed.map((x) => x.kind === 'tool' && [x.call.status, x.call.result])).toEqual([
      ['error', 'cancelled'],
      ['error', 'cancelled'],
      ['error', 'cancelled'],
    ]);
  });

  it('shows a result whose call came before this process (resumed session)', () => {
    const s = run(result('c9', 'shell', 'done'));
    expect(s.committed).toMatchObject([{ kind: 'tool', call: { callId: 'c9', name: 'shell', status: 'done' } }]);
  });

  it('hides transfer_to_agent rows and shows the transfer instead', () => {
    const s = run(
      { type: 'message', agent: 'lead', runPath: ['team', 'lead'], message: { role: 'assistant', content: '', toolCalls: [{ id: 't1', function: { name: 'transfer_to_agent', arguments: '{"agent_name":"researcher"}' } }] } },
      result('t1', 'transfer_to_agent', 'successfully transferred to agent [researcher]'),
      { type: 'transfer', from: 'lead', to: 'researcher' },
      { type: 'path', runPath: ['team', 'lead', 'researcher'] },
    );
    expect(s.live).toEqual([]);
    expect(s.committed).toMatchObject([{ kind: 'transfer', from: 'lead', to: 'researcher' }]);
    expect(s.path).toEqual(['team', 'lead', 'researcher']);
  });
  it('keeps rows of different agents apart when their call ids collide', () => {
    const s = run(
      { type: 'message', agent: 'lead', runPath: ['lead'], message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', function: { name: 'transfer_to_agent', arguments: '{"agent_name":"helper"}' } }] } },
      { type: 'message', agent: 'lead', runPath: ['lead'], message: { role: 'tool', content: 'successfully transferred to agent [helper]', toolCallId: 'call_1', toolName: 'transfer_to_agent' } },
      { type: 'message', agent: 'helper', runPath: ['lead', 'helper'], message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', function: { name: 'current_time', arguments: '{}' } }] } },
      { type: 'message', agent: 'helper', runPath: ['lead', 'helper'], message: { role: 'tool', content: 'noon', toolCallId: 'call_1', toolName: 'current_time' } },
    );
    expect(s.live).toEqual([]);
    expect(s.committed.filter((x) => x.kind === 'tool')).toMatchObject([{ kind: 'tool', agent: 'helper', call: { callId: 'call_1', name: 'current_time', status: 'done', result: 'noon' } }]);
  });
});

describe('viewReducer: transcript housekeeping', () => {
  it('re-shows the last collapsed tool result in full', () => {
    const long = 'l1\nl2\nl3\nl4\nl5';
    const s = run(
      { type: 'message', agent: 'a', runPath: [], message: { role: 'tool', content: long, toolCallId: 'c1', toolName: 'shell' } },
      { type: 'expandLast' },
    );
    expect(s.committed.map((x) => x.kind === 'tool' && [x.call.result, !!x.expanded])).toEqual([
      [long, false],
      [long, true],
    ]);
    expect(new Set(s.committed.map((x) => x.id)).size).toBe(2);
  });

  it('clear starts a new epoch with an empty transcript but keeps the usage', () => {
    const s = run({ type: 'user', text: 'hi' }, { type: 'message', agent: 'a', runPath: [], message: { role: 'assistant', content: 'x', usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 } } }, { type: 'clear' });
    expect(s.committed).toEqual([]);
    expect(s.epoch).toBe(1);
    expect(s.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
  });

  it('applies batches in order', () => {
    const s = run({ type: 'batch', actions: [{ type: 'user', text: 'a' }, { type: 'info', text: 'b' }] });
    expect(s.committed.map((x) => x.kind)).toEqual(['user', 'info']);
  });
});
