import { cleanup, render } from 'ink-testing-library';
import chalk from 'chalk';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ApprovalPrompt, type ApprovalChoice } from '../../src/ui/components/ApprovalPrompt.js';
import { AskUserPrompt } from '../../src/ui/components/AskUserPrompt.js';
import { PlanReviewPrompt, type PlanDecision } from '../../src/ui/components/PlanReviewPrompt.js';
import { KEY, plain, tick, type } from './helpers.js';

afterEach(() => cleanup());

function approval() {
  const onDecision = vi.fn<(c: ApprovalChoice) => void>();
  const r = render(<ApprovalPrompt agent="coder" tool="shell" arguments={{ command: 'rm -rf build' }} message="Allow shell?" width={70} onDecision={onDecision} />);
  return { r, onDecision };
}

describe('ApprovalPrompt', () => {
  it('shows who asks, the tool, its arguments as a person reads them (key: value), and the keys', async () => {
    const { r } = approval();
    await tick();
    const frame = plain(r.lastFrame());
    expect(frame).toContain('coder wants to run shell');
    expect(frame).toContain('command: rm -rf build');
    expect(frame).toContain('[y] approve once');
    expect(frame).toContain('[a] always allow shell');
    expect(frame).toContain('[n] reject');
    expect(frame).toContain('[e] edit args');
  });

  it('y approves once', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'y');
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true });
  });

  it('a, then y to confirm, approves for the rest of the session; a alone approves nothing', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'a');
    expect(onDecision).not.toHaveBeenCalled();
    expect(plain(r.lastFrame())).toContain('without asking for the rest of this session');
    await type(r.stdin, 'y');
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, always: true });
  });

  it('a then n goes back to the menu', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'a');
    await type(r.stdin, 'n');
    expect(onDecision).not.toHaveBeenCalled();
    expect(plain(r.lastFrame())).toContain('approve once');
  });

  it('Esc at the menu rejects (issue 15); Esc in the reason field goes back to the menu', async () => {
    const { r, onDecision } = approval();
    await tick();
    await type(r.stdin, 'n');
    await type(r.stdin, KEY.esc);
    await tick(50);
    expect(onDecision).not.toHaveBeenCalled();
    await type(r.stdin, KEY.esc);
    await tick(50);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: false });
  });

  it('n asks for an optional reason, then rejects with it', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'n');
    expect(onDecision).not.toHaveBeenCalled();
    expect(plain(r.lastFrame())).toContain('reason ›');
    await type(r.stdin, 'too risky', KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: false, reason: 'too risky' });
  });

  it('n then Enter rejects without a reason; keys typed into the reason are not hotkeys', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'n', 'y', 'a', KEY.backspace, KEY.backspace, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: false });
  });

  it('keys typed right after n (same tick) go to the reason, not to the hotkeys', async () => {
    const { r, onDecision } = approval();
    await tick();
    r.stdin.write('n');
    r.stdin.write('y');
    r.stdin.write('a');
    await tick();
    await type(r.stdin, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: false, reason: 'ya' });
  });

  it('e edits the arguments as JSON and approves with them', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'e');
    const frame = plain(r.lastFrame());
    expect(frame).toContain('Edit the arguments');
    const initial = JSON.stringify({ command: 'rm -rf build' }, null, 2);
    for (let i = 0; i < initial.length; i++) r.stdin.write(KEY.backspace);
    await tick();
    await type(r.stdin, '{"command": "rm -rf build/tmp"}', KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, arguments: { command: 'rm -rf build/tmp' } });
  });

  it('↑/↓ move between the lines of the JSON being edited (issue 15)', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'e');
    // The cursor starts after the closing brace; ↑ is on the command's line, Ctrl-E at its end, ← before the quote.
    await type(r.stdin, '\u001b[A', '\u0005', '\u001b[D', '/tmp', KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, arguments: { command: 'rm -rf build/tmp' } });
  });

  it('invalid JSON shows an error and stays in the editor', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'e', KEY.backspace, KEY.enter);
    expect(onDecision).not.toHaveBeenCalled();
    expect(plain(r.lastFrame())).toMatch(/invalid JSON/);
    // Fixing it clears the error and approves.
    await type(r.stdin, '}', KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, arguments: { command: 'rm -rf build' } });
  });

  it('Esc in the editor goes back to the keys', async () => {
    const { r, onDecision } = approval();
    await type(r.stdin, 'e', KEY.esc);
    await tick(80);
    expect(plain(r.lastFrame())).toContain('[y] approve once');
    await type(r.stdin, 'y');
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true });
  });
});

describe('AskUserPrompt', () => {
  it('shows the question and sends the typed answer on Enter', async () => {
    const onAnswer = vi.fn();
    const r = render(<AskUserPrompt agent="assistant" question="Which city?" width={60} onAnswer={onAnswer} />);
    await tick();
    expect(plain(r.lastFrame())).toContain('assistant asks');
    expect(plain(r.lastFrame())).toContain('Which city?');
    await type(r.stdin, 'Par', 'is', KEY.enter);
    expect(onAnswer).toHaveBeenCalledExactlyOnceWith('Paris');
  });

  it('takes several lines with \\ + Enter', async () => {
    const onAnswer = vi.fn();
    const r = render(<AskUserPrompt question="Details?" width={60} onAnswer={onAnswer} />);
    await type(r.stdin, 'one', '\\', KEY.enter, 'two', KEY.enter);
    expect(onAnswer).toHaveBeenCalledExactlyOnceWith('one\ntwo');
  });
});

describe('PlanReviewPrompt', () => {
  const plan = ['Find the sources', 'Summarise them', 'Write the report'];

  it('lists the steps numbered; Enter accepts', async () => {
    const onDecision = vi.fn<(d: PlanDecision) => void>();
    const r = render(<PlanReviewPrompt agent="planner" plan={plan} width={60} onDecision={onDecision} />);
    await tick();
    const frame = plain(r.lastFrame());
    expect(frame).toContain('1. Find the sources');
    expect(frame).toContain('2. Summarise them');
    expect(frame).toContain('3. Write the report');
    await type(r.stdin, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ accept: true });
  });

  it('y accepts too', async () => {
    const onDecision = vi.fn();
    const r = render(<PlanReviewPrompt plan={plan} width={60} onDecision={onDecision} />);
    await type(r.stdin, 'y');
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ accept: true });
  });

  it('f then text sends feedback', async () => {
    const onDecision = vi.fn();
    const r = render(<PlanReviewPrompt plan={plan} width={60} onDecision={onDecision} />);
    await type(r.stdin, 'f');
    expect(plain(r.lastFrame())).toContain('feedback ›');
    await type(r.stdin, 'skip step 2', KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ accept: false, feedback: 'skip step 2' });
  });
});

describe('readable, scrollable approval arguments (issue 15)', () => {
  it('a file body is shown as its lines, not one escaped JSON string, and ↓ scrolls to the end', async () => {
    const { readableArgs } = await import('../../src/ui/text/readable-args.js');
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(readableArgs({ path: 'a.txt', content })).toBe(`path: a.txt\ncontent:\n${content.split('\n').map((l) => `  ${l}`).join('\n')}`);
    expect(readableArgs('{"n":3,"deep":{"x":[1]}}')).toBe('n: 3\ndeep: {\n  "x": [\n    1\n  ]\n}');
    expect(readableArgs({ cmd: 'a\u001b]0;pwned\u0007b' })).not.toMatch(/\u001b|\u0007/);
  });
});

describe('diffs in the approval box (issue 15)', () => {
  it('shows the unified diff coloured: added green, removed red', async () => {
    const level = chalk.level;
    chalk.level = 1;
    onTestFinished(() => void (chalk.level = level));
    const onDecision = vi.fn();
    const diff = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n keep\n-old line\n+new line';
    const r = render(<ApprovalPrompt tool="edit_file" arguments={{ path: 'a.txt' }} diff={diff} width={70} onDecision={onDecision} />);
    await tick();
    const frame = r.lastFrame()!;
    expect(plain(frame)).toContain('-old line');
    expect(plain(frame)).toContain('+new line');
    expect(frame).toMatch(/\u001b\[32m\+new line/);
    expect(frame).toMatch(/\u001b\[31m-old line/);
  });
});
