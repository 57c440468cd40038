import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: custom slash commands (.adk/commands/*.md) listed with their description and argument
// hint, expanded with $ARGUMENTS / $1 and @file; `#` adds a line to AGENTS.md that the model reads.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

const lastUser = (i: number): string => String(server().chatRequests[i]!.body.messages.filter((m: any) => m.role === 'user').at(-1).content);
const system = (i: number): string => String(server().chatRequests[i]!.body.messages.find((m: any) => m.role === 'system')?.content ?? '');

describe('custom commands and memory (tmux)', () => {
  it('/fix-issue 4711 urgent: completion shows it with its hint, the model gets the body with $ARGUMENTS, $1 and @file filled in', async () => {
    const { dir, work } = chatWorkspace('adk-cmds-');
    mkdirSync(join(work, '.adk', 'commands'), { recursive: true });
    writeFileSync(join(work, '.adk', 'commands', 'fix-issue.md'), '---\ndescription: Fix a tracked issue\nargument-hint: "[issue-number]"\n---\nFix issue #$ARGUMENTS, start from ticket $1.\nSee @notes.txt\n');
    writeFileSync(join(work, 'notes.txt'), 'the parser drops 0x2A\n');
    server().onRequest(() => ({ content: 'On it.' }));
    const raw = join(dir, 'cmd.raw');
    startChat(tmux, 'cmd', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('cmd', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('cmd', '/fix-i');
    await tmux.waitForScreen('cmd', (s) => /\/fix-issue.*Fix a tracked issue.*\[issue-number\]/.test(s), 'the command offered with its description and hint');
    tmux.type('cmd', 'ssue 4711 urgent');
    tmux.keys('cmd', 'Enter');
    await tmux.waitForScreen('cmd', (s) => s.includes('On it.'), 'the answer');
    const sent = lastUser(0);
    expect(sent).toContain('Fix issue #4711 urgent, start from ticket 4711.');
    expect(sent).toContain('the parser drops 0x2A');
    expect(sent).not.toContain('$ARGUMENTS');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('# always run pnpm 7311: asked where, added to ./AGENTS.md, and the next request carries it', async () => {
    const { dir, work } = chatWorkspace('adk-memory-');
    server().onRequest(() => ({ content: 'Noted.' }));
    const raw = join(dir, 'mem.raw');
    startChat(tmux, 'mem', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('mem', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('mem', '# always run pnpm 7311');
    tmux.keys('mem', 'Enter');
    await tmux.waitForScreen('mem', (s) => s.includes('Project memory') && s.includes('User memory'), 'the choice of memory');
    await sleep(700);
    tmux.keys('mem', 'Enter');
    await tmux.waitForScreen('mem', (s) => s.includes('Added to') && s.includes(PROMPT), 'the line saved');
    expect(readFileSync(join(work, 'AGENTS.md'), 'utf8')).toBe('- always run pnpm 7311\n');
    expect(server().chatRequests).toHaveLength(0);
    tmux.type('mem', 'hello');
    tmux.keys('mem', 'Enter');
    await tmux.waitForScreen('mem', (s) => s.includes('Noted.'), 'the answer');
    expect(system(0)).toContain('always run pnpm 7311');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('/init: the model explores with read-only tools, then writes AGENTS.md through an approved write_file', async () => {
    const { dir, work } = chatWorkspace('adk-init-model-');
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'demo-project', scripts: { test: 'vitest' } }));
    server().onRequest((req) => {
      const calls = req.body.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.function.name));
      if (!calls.includes('list_dir')) return { toolCalls: [{ id: 'c_ls', name: 'list_dir', arguments: { path: '.' } }] };
      if (!calls.includes('read_file')) return { toolCalls: [{ id: 'c_rd', name: 'read_file', arguments: { path: 'package.json' } }] };
      if (!calls.includes('write_file')) return { toolCalls: [{ id: 'c_wr', name: 'write_file', arguments: { path: 'AGENTS.md', content: '# demo-project\n\nRun `npm test` (vitest).\n' } }] };
      return { content: 'AGENTS.md is written.' };
    });
    const raw = join(dir, 'init.raw');
    startChat(tmux, 'init', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('init', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('init', '/init');
    tmux.keys('init', 'Enter');
    await tmux.waitForScreen('init', (s) => s.includes('approve once') && s.includes('AGENTS.md'), 'the approval of the write');
    expect(existsSync(join(work, 'AGENTS.md'))).toBe(false);
    expect(lastUser(0)).toContain('Write AGENTS.md for this repository');
    // What it read reached it before it wrote.
    expect(JSON.stringify(server().chatRequests[2]!.body.messages)).toContain('vitest');
    await sleep(700);
    tmux.type('init', 'y');
    await tmux.waitForScreen('init', (s) => s.includes('AGENTS.md is written.'), 'the end of the run');
    expect(readFileSync(join(work, 'AGENTS.md'), 'utf8')).toBe('# demo-project\n\nRun `npm test` (vitest).\n');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('/init on the offline demo team writes a starter AGENTS.md once, never over yours', async () => {
    const { dir, work } = chatWorkspace('adk-init-demo-');
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'demo-project', description: 'A project for the test.', scripts: { test: 'vitest', build: 'tsc' } }));
    startChat(tmux, 'initdemo', { dir, cwd: work, env: { ADK_HOME: join(dir, 'home') } });
    await tmux.waitForScreen('initdemo', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('initdemo', '/init');
    tmux.keys('initdemo', 'Enter');
    await tmux.waitForScreen('initdemo', (s) => s.includes('Wrote'), 'the /init report');
    const agentsMd = readFileSync(join(work, 'AGENTS.md'), 'utf8');
    expect(agentsMd).toContain('# demo-project');
    expect(agentsMd).toContain('- `npm test`');
    writeFileSync(join(work, 'AGENTS.md'), 'mine\n');
    tmux.type('initdemo', '/init');
    tmux.keys('initdemo', 'Enter');
    await tmux.waitForScreen('initdemo', (s) => s.includes('already exists; it was left as it is'), 'the refusal');
    expect(readFileSync(join(work, 'AGENTS.md'), 'utf8')).toBe('mine\n');
  }, 60_000);

  it('/memory opens the chosen AGENTS.md in $EDITOR and saves what the editor wrote', async () => {
    const { dir, work } = chatWorkspace('adk-memory-edit-');
    const editor = join(dir, 'editor.sh');
    writeFileSync(editor, 'echo "- written in the editor 5150" >> "$1"\n');
    const raw = join(dir, 'memedit.raw');
    startChat(tmux, 'memedit', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url, { EDITOR: `sh ${editor}` }) });
    await tmux.waitForScreen('memedit', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('memedit', '/memory');
    tmux.keys('memedit', 'Enter');
    await tmux.waitForScreen('memedit', (s) => s.includes('User memory'), 'the choice of memory');
    await sleep(700);
    tmux.keys('memedit', 'Down');
    await sleep(100);
    tmux.keys('memedit', 'Enter');
    await tmux.waitForScreen('memedit', (s) => s.includes('Saved') && s.includes(PROMPT), 'the file saved');
    expect(readFileSync(join(dir, 'home', 'AGENTS.md'), 'utf8')).toBe('- written in the editor 5150\n');
    expect(existsSync(join(work, 'AGENTS.md'))).toBe(false);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
