import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { LiveTail } from '../../src/ui/components/LiveTail.js';
import { Transcript } from '../../src/ui/components/Transcript.js';
import type { LiveItem, LiveMessage, TranscriptItem } from '../../src/ui/state/transcript.js';
import { plain, tick } from './helpers.js';

afterEach(() => cleanup());

const message = (text: string, over: Partial<LiveMessage> = {}): LiveMessage => ({
  kind: 'message',
  id: 'm1',
  streamId: 's1',
  lane: 'lead',
  agent: 'lead',
  runPath: ['lead'],
  text,
  thought: '',
  thoughtCommitted: false,
  committedChunks: 0,
  toolNames: [],
  ...over,
});

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n');

describe('LiveTail', () => {
  it('shows a short tail in full, without a note', async () => {
    const r = render(<LiveTail items={[message('hello\nworld')]} width={60} maxRows={10} />);
    await tick();
    expect(plain(r.lastFrame()).split('\n')).toEqual(['● lead', '  hello', '  world']);
  });

  it('caps a tall tail to maxRows and says how many lines are hidden', async () => {
    const r = render(<LiveTail items={[message(lines(50))]} width={60} maxRows={10} />);
    await tick();
    const out = plain(r.lastFrame()).split('\n');
    expect(out).toHaveLength(10);
    expect(out[0]).toMatch(/^… \d+ lines hidden$/);
    const hidden = Number(/… (\d+) lines hidden/.exec(out[0])![1]);
    // 50 text lines + the header, 9 rows shown.
    expect(hidden).toBe(51 - 9);
    expect(out.at(-1)).toBe('  line 50');
  });

  it('stays capped while the text grows, always showing the newest line', async () => {
    const r = render(<LiveTail items={[message(lines(5))]} width={60} maxRows={8} />);
    await tick();
    expect(plain(r.lastFrame()).split('\n')).toHaveLength(6);
    for (const n of [9, 20, 33]) {
      r.rerender(<LiveTail items={[message(lines(n))]} width={60} maxRows={8} />);
      await tick();
      const out = plain(r.lastFrame()).split('\n');
      expect(out.length).toBeLessThanOrEqual(8);
      expect(out[0]).toMatch(/lines hidden/);
      expect(out.at(-1)).toBe(`  line ${n}`);
    }
    // Every frame ever written stayed within the cap.
    for (const f of r.frames) expect(plain(f).split('\n').length).toBeLessThanOrEqual(8);
  });

  it('shrinks to its note, or to nothing, when a prompt takes the screen', async () => {
    const one = render(<LiveTail items={[message(lines(5))]} width={60} maxRows={1} />);
    await tick();
    expect(plain(one.lastFrame())).toMatch(/^… \d+ lines hidden$/);
    const none = render(<LiveTail items={[message(lines(5))]} width={60} maxRows={0} />);
    await tick();
    expect(none.lastFrame()).toBe('');
  });

  it('counts wrapped rows, not just source lines', async () => {
    const long = 'word '.repeat(200).trim();
    const r = render(<LiveTail items={[message(long)]} width={40} maxRows={6} />);
    await tick();
    const out = plain(r.lastFrame()).split('\n');
    expect(out).toHaveLength(6);
    expect(out[0]).toMatch(/lines hidden/);
  });

  it('labels each parallel lane by its agent', async () => {
    const items: LiveItem[] = [
      message('alpha text', { id: 'a', streamId: 'sa', agent: 'alpha', lane: 'par/alpha' }),
      message('beta text', { id: 'b', streamId: 'sb', agent: 'beta', lane: 'par/beta' }),
    ];
    const r = render(<LiveTail items={items} width={60} maxRows={20} />);
    await tick();
    expect(plain(r.lastFrame()).split('\n')).toEqual(['● alpha', '  alpha text', '', '● beta', '  beta text']);
  });

  it('continues a message already partly committed without repeating its header', async () => {
    const last: TranscriptItem = { kind: 'assistant', id: 'v1', agent: 'lead', text: 'First.', messageId: 'm1', showHeader: true };
    const r = render(<LiveTail items={[message('second')]} lastCommitted={last} width={60} maxRows={10} />);
    await tick();
    expect(plain(r.lastFrame()).split('\n')).toEqual(['', '  second']);
  });

  it('shows running tool rows', async () => {
    const items: LiveItem[] = [{ kind: 'tool', id: 't', agent: 'lead', call: { callId: 'c1', name: 'grep', args: '{"pattern":"x"}', status: 'running' } }];
    const r = render(<LiveTail items={items} width={60} maxRows={10} />);
    await tick();
    expect(plain(r.lastFrame())).toMatch(/^. grep pattern: "x"$/);
    r.unmount();
  });
});

describe('Transcript', () => {
  it('writes finished items once, above the live tail', async () => {
    const committed: TranscriptItem[] = [
      { kind: 'user', id: 'v1', text: 'hi' },
      { kind: 'assistant', id: 'v2', agent: 'lead', text: 'Hello **there**.', messageId: 'm0', showHeader: true },
    ];
    const state = { committed, live: [message('typing')], epoch: 0 };
    const r = render(<Transcript state={state} width={60} maxLiveRows={10} />);
    await tick();
    expect(plain(r.lastFrame()).split('\n')).toEqual(['› hi', '', '● lead', '  Hello there.', '', '● lead', '  typing']);
    const more: TranscriptItem[] = [...committed, { kind: 'transfer', id: 'v3', from: 'lead', to: 'researcher' }];
    r.rerender(<Transcript state={{ committed: more, live: [], epoch: 0 }} width={60} maxLiveRows={10} />);
    await tick();
    const out = plain(r.lastFrame());
    expect(out.match(/Hello there/g)).toHaveLength(1);
    expect(out).toContain('↳ lead → researcher');
  });
});
