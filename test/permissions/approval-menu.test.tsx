import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApprovalPrompt, type ApprovalChoice } from '../../src/ui/components/ApprovalPrompt.js';
import { suggestedRule } from '../../src/core/agents/suggest-rule.js';
import { formatRule } from '../../src/core/agents/allow-rules.js';
import { KEY, plain, tick, type } from '../ui/helpers.js';

// Issue 32: the permission menu as Claude Code users know it: 1/2/3 (and 4, edit), ↑/↓ and Enter,
// with the keys shown (item 9: "Enter, 1 and ↓ do nothing at an approval, with no hint").
afterEach(() => cleanup());

/** The menu, rendered; keys are typed once its input handler is attached (an effect: under a loaded CI a key sent at once was lost). */
function menu(command = 'npm test -- --watch') {
  const onDecision = vi.fn<(c: ApprovalChoice) => void>();
  const r = render(<ApprovalPrompt tool="shell" arguments={{ command }} width={90} onDecision={onDecision} />);
  return { r, onDecision };
}

describe('approval menu', () => {
  it('lists the numbered choices, with the prefix rule choice 2 would save, and says how to choose', async () => {
    const { r } = menu();
    await tick();
    const frame = plain(r.lastFrame());
    expect(frame).toContain('❯ 1. Yes');
    expect(frame).toContain("2. Yes, and don't ask again for shell(npm test*) in this folder");
    expect(frame).toContain('3. No, and tell the model what to do instead');
    expect(frame).toContain('4. Edit the arguments');
    expect(frame).toMatch(/↑\/↓.*Enter/);
  });

  it('Enter takes the highlighted choice: 1 at first', async () => {
    const { r, onDecision } = menu();
    await tick();
    await type(r.stdin, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true });
  });

  it('↓ then Enter is choice 2: approved, with the rule to remember', async () => {
    const { r, onDecision } = menu();
    await tick();
    await type(r.stdin, KEY.down);
    expect(plain(r.lastFrame())).toContain("❯ 2. Yes, and don't ask again");
    await type(r.stdin, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, remember: true });
  });

  it('↓↓↑ moves back; 1 and 2 choose at once', async () => {
    const { r, onDecision } = menu();
    await tick();
    await type(r.stdin, KEY.down, KEY.down, KEY.up);
    expect(plain(r.lastFrame())).toContain('❯ 2.');
    await type(r.stdin, '2');
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true, remember: true });
    const second = menu();
    await tick();
    await type(second.r.stdin, '1');
    expect(second.onDecision).toHaveBeenCalledExactlyOnceWith({ approved: true });
  });

  it('3 asks what to do instead; the text goes with the rejection', async () => {
    const { r, onDecision } = menu();
    await tick();
    await type(r.stdin, '3');
    expect(plain(r.lastFrame())).toContain('What should the model do instead?');
    r.stdin.write('use pnpm');
    await tick();
    await type(r.stdin, KEY.enter);
    expect(onDecision).toHaveBeenCalledExactlyOnceWith({ approved: false, reason: 'use pnpm' });
  });

  it('4 opens the argument editor', async () => {
    const { r } = menu();
    await tick();
    await type(r.stdin, '4');
    expect(plain(r.lastFrame())).toContain('Edit the arguments');
  });

  it('a command with operators is offered no rule (a rule would never match it)', async () => {
    const { r, onDecision } = menu('npm test && rm -rf /');
    await tick();
    expect(plain(r.lastFrame())).not.toContain("don't ask again for");
    await type(r.stdin, '2');
    expect(onDecision).not.toHaveBeenCalled();
  });
});

describe('suggested rules', () => {
  const s = (tool: string, args: unknown, ws?: string) => {
    const r = suggestedRule(tool, args, ws);
    return r && formatRule(r);
  };
  it('a command prefix from its first words; a file path; a whole tool', () => {
    expect(s('shell', { command: 'npm test' })).toBe('shell(npm test*)');
    expect(s('shell', { command: 'git status -s' })).toBe('shell(git status*)');
    expect(s('shell', { command: 'ls -la src' })).toBe('shell(ls *)');
    expect(s('shell', { command: 'make' })).toBe('shell(make)');
    expect(s('shell', { command: './build.sh --fast' })).toBe('shell(./build.sh --fast)');
    expect(s('shell', { command: 'echo hi > f' })).toBeUndefined();
    expect(s('write_file', { path: './src/a.ts' })).toBe('write_file(src/a.ts)');
    expect(s('write_file', { path: '/w/src/a.ts' }, '/w')).toBe('write_file(src/a.ts)');
    expect(s('write_file', { path: '/etc/passwd' }, '/w')).toBeUndefined();
    expect(s('fetch_url', { url: 'https://x' })).toBe('fetch_url');
  });

  // Issue 48 item 7: "don't ask again" for `rm -rf build` offered `shell(rm *)`: every rm in the folder.
  it('a command that destroys or publishes is remembered exactly, never as a prefix', () => {
    expect(s('shell', { command: 'rm -rf build' })).toBe('shell(rm -rf build)');
    expect(s('shell', { command: 'git push --force origin main' })).toBe('shell(git push --force origin main)');
    expect(s('shell', { command: 'git push origin main' })).toBe('shell(git push origin main)');
    expect(s('shell', { command: 'git reset --hard origin/main' })).toBe('shell(git reset --hard origin/main)');
    expect(s('shell', { command: 'npm publish --access public' })).toBe('shell(npm publish --access public)');
    expect(s('shell', { command: 'sudo apt-get install jq' })).toBe('shell(sudo apt-get install jq)');
    expect(s('shell', { command: 'chmod -R 777 .' })).toBe('shell(chmod -R 777 .)');
    expect(s('shell', { command: 'npx some-tool init' })).toBe('shell(npx some-tool init)');
    // Everyday commands keep their prefix.
    expect(s('shell', { command: 'git diff --stat' })).toBe('shell(git diff*)');
    expect(s('shell', { command: 'npm run build' })).toBe('shell(npm run*)');
  });
});

describe('choice 2 with approvals asked at once', () => {
  it('the sibling calls the saved rule now allows are answered without asking', async () => {
    const { ChatApp } = await import('../../src/ui/app/ChatApp.js');
    const interrupt = (id: string, command: string) => ({ id, address: `agent:lead;tool:shell:${id}`, info: { kind: 'approval' as const, message: 'Allow?', tool: 'shell', arguments: { command } } });
    const rules: string[] = [];
    let answers: Record<string, unknown> | undefined;
    const r = render(
      <ChatApp
        runTurn={async function* () {}}
        answerInterrupts={(a) => {
          answers = a;
          return (async function* () {})();
        }}
        onExit={() => {}}
        promptArmMs={0}
        rows={40}
        columns={100}
        initialInterrupts={[interrupt('i1', 'npm test'), interrupt('i2', 'npm test -- --watch'), interrupt('i3', 'rm -rf build')]}
        onRemember={(_tool, args) => void rules.push((args as { command: string }).command.split(' ').slice(0, 2).join(' '))}
        ruleAllows={(_tool, args) => rules.some((p) => (args as { command: string }).command.startsWith(p))}
      />,
    );
    await tick(50);
    expect(plain(r.lastFrame())).toContain("2. Yes, and don't ask again for shell(npm test*)");
    await type(r.stdin, '2');
    // i2 is allowed by the new rule; i3 still asks.
    await tick(50);
    expect(plain(r.lastFrame())).toContain('rm -rf build');
    expect(plain(r.lastFrame())).toContain('a permission rule allows it');
    await type(r.stdin, '3');
    await type(r.stdin, KEY.enter);
    await tick(50);
    expect(answers).toEqual({ i1: { approved: true }, i2: { approved: true }, i3: { approved: false } });
  });
});
