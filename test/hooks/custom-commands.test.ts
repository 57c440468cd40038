import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandCustomCommand, findCustomCommands } from '../../src/cli/chat/custom-commands.js';
import { expandLocalCommand } from '../../src/cli/chat/local-commands.js';

function folders() {
  const root = mkdtempSync(join(tmpdir(), 'adk-cmds-unit-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  mkdirSync(join(work, '.adk', 'commands', 'frontend'), { recursive: true });
  mkdirSync(join(home, 'commands'), { recursive: true });
  return { root, work, home, env: { ADK_HOME: home } };
}

describe('custom commands', () => {
  it('reads front matter, names subfolders /folder:name, and the person\'s own win a name', () => {
    const { work, home, env } = folders();
    writeFileSync(join(work, '.adk', 'commands', 'frontend', 'component.md'), '---\ndescription: Make a component\nargument-hint: "[name]"\nallowed-tools: shell, write_file\nmodel: small\n---\nMake $1.\n');
    writeFileSync(join(work, '.adk', 'commands', 'review.md'), 'Review it (project)\n');
    writeFileSync(join(home, 'commands', 'review.md'), 'Review it (mine)\n');
    const found = findCustomCommands(work, env);
    expect(found.map((c) => [c.name, c.scope])).toEqual([['/frontend:component', 'project'], ['/review', 'user']]);
    expect(found[0]).toMatchObject({ description: 'Make a component', argumentHint: '[name]', allowedTools: ['shell', 'write_file'], model: 'small' });
  });

  it('fills $ARGUMENTS and $1…; !`cmd` stays for the REPL to run once approved (command-turn.ts)', () => {
    const { work, env } = folders();
    writeFileSync(join(work, '.adk', 'commands', 'ship.md'), 'Ship $1 to $2 ($ARGUMENTS).\n!`git status --short`\n');
    const [c] = findCustomCommands(work, env);
    const text = expandCustomCommand(c!, 'v2 prod');
    expect(text).toBe('Ship v2 to prod (v2 prod).\n!`git status --short`');
    expect(expandCustomCommand(c!, '$& $1')).toContain('($& $1)');
  });

  it("a project's commands folder that leads out of the workspace is not read", () => {
    const { root, env } = folders();
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'evil.md'), 'evil\n');
    const w2 = join(root, 'w2');
    mkdirSync(join(w2, '.adk'), { recursive: true });
    symlinkSync(outside, join(w2, '.adk', 'commands'));
    expect(findCustomCommands(w2, env)).toEqual([]);
  });

  it('a built-in name is never taken by a command file', async () => {
    const { work } = folders();
    writeFileSync(join(work, '.adk', 'commands', 'help.md'), 'not help\n');
    expect(await expandLocalCommand('/help', work)).toBeUndefined();
  });
});
