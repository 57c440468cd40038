import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { formatArgs, ToolRow } from '../../src/ui/components/ToolRow.js';
import type { ToolCallView } from '../../src/ui/state/transcript.js';
import { SPINNER_FRAMES } from '../../src/ui/theme/glyphs.js';
import { plain, tick } from './helpers.js';

const call = (over: Partial<ToolCallView>): ToolCallView => ({ callId: 'c1', name: 'shell', args: '{"command":"ls -la"}', status: 'done', ...over });

describe('ToolRow', () => {
  it('pending: ○ and a waiting note', () => {
    const r = render(<ToolRow call={call({ status: 'pending' })} width={80} />);
    expect(plain(r.lastFrame())).toBe('○ shell command: "ls -la" · waiting for you');
  });

  it('running: an animated spinner', async () => {
    const r = render(<ToolRow call={call({ status: 'running' })} width={80} />);
    await tick(300);
    const glyphs = new Set(r.frames.map((f) => plain(f)[0]));
    expect([...glyphs].every((g) => SPINNER_FRAMES.includes(g))).toBe(true);
    expect(glyphs.size).toBeGreaterThan(1);
    expect(plain(r.lastFrame())).toMatch(/^. shell command: "ls -la"$/);
    r.unmount();
  });

  it('done: ✓ with the result', () => {
    const r = render(<ToolRow call={call({ result: 'total 0' })} width={80} />);
    expect(plain(r.lastFrame()).split('\n')).toEqual(['✓ shell command: "ls -la"', '  ⎿ total 0']);
  });

  it('done without output says so', () => {
    const r = render(<ToolRow call={call({ result: '' })} width={80} />);
    expect(plain(r.lastFrame())).toContain('⎿ (no output)');
  });

  it('error: ✗ and the error text in red', () => {
    const r = render(<ToolRow call={call({ status: 'error', result: 'exit code 2' })} width={80} />);
    expect(plain(r.lastFrame()).split('\n')).toEqual(['✗ shell command: "ls -la"', '  ⎿ exit code 2']);
  });

  it('rejected: ⊘', () => {
    const r = render(<ToolRow call={call({ status: 'rejected', result: 'The user rejected this shell call.' })} width={80} />);
    expect(plain(r.lastFrame()).split('\n')[0]).toBe('⊘ shell command: "ls -la"');
  });

  it('collapses a long result to 3 lines with a +N hint; expanded shows all', () => {
    const result = ['a', 'b', 'c', 'd', 'e', 'f'].join('\n');
    const collapsed = plain(render(<ToolRow call={call({ result })} width={80} />).lastFrame()).split('\n');
    expect(collapsed).toEqual(['✓ shell command: "ls -la"', '  ⎿ a', '    b', '    c', '    … +3 lines (/expand)']);
    const expanded = plain(render(<ToolRow call={call({ result })} width={80} expanded />).lastFrame()).split('\n');
    expect(expanded).toHaveLength(7);
    expect(expanded.at(-1)).toBe('    f');
  });

  it('keeps the arguments on one line, cut to the width', () => {
    const args = JSON.stringify({ command: 'x'.repeat(200), cwd: '/tmp' });
    const lines = plain(render(<ToolRow call={call({ args, result: 'ok' })} width={40} />).lastFrame()).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0].length).toBeLessThanOrEqual(40);
    expect(lines[0]).toMatch(/^✓ shell command: "x+…$/);
  });
});

describe('ToolRow at narrow widths', () => {
  it('keeps a waiting row on one line, giving up arguments before the note', () => {
    const args = JSON.stringify({ key0: 'value 0', key1: 'value 1', key2: 'value 2' });
    for (const width of [60, 30, 20]) {
      const frame = plain(render(<ToolRow call={call({ status: 'pending', name: 'write_file', args })} width={width} />).lastFrame());
      expect(frame.split('\n')).toHaveLength(1);
      expect(frame.length).toBeLessThanOrEqual(width);
      expect(frame.endsWith('· waiting for you')).toBe(true);
    }
  });
});

describe('formatArgs', () => {
  it('shows object arguments as key: value pairs and leaves other text as is', () => {
    expect(formatArgs('{"path":"a.txt","n":3}')).toBe('path: "a.txt", n: 3');
    expect(formatArgs('not json\n at all')).toBe('not json at all');
    expect(formatArgs('')).toBe('');
  });
});

describe('an edit shows its diff in the transcript (issue 15)', () => {
  it('the changed lines, removed then added, above the result', async () => {
    const { render: r } = await import('ink-testing-library');
    const frame = r(
      <ToolRow
        call={{ callId: 'c1', name: 'edit_file', args: JSON.stringify({ path: 'app.py', old: 'def helo():\n    return 1', new: 'def hello():\n    return 1' }), status: 'done', result: 'Edited app.py: replaced 1 occurrence at line 3' }}
        width={80}
      />,
    ).lastFrame()!;
    const text = plain(frame);
    expect(text).toContain('- def helo():');
    expect(text).toContain('+ def hello():');
    expect(text).not.toContain('return 1');
    expect(text.indexOf('+ def hello():')).toBeLessThan(text.indexOf('Edited app.py'));
  });
});
