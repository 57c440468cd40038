import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { jsonLines, runCli } from '../support/cli.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: `/fork` and `adk resume --fork` branch a session; `adk chat -c` continues this folder's
// last session; `adk resume` with no id opens a list that typing filters.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const seen = (req: any) => `seen: ${req.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content).join(' | ')}`;

async function sessionJson(env: Record<string, string>, cwd: string, id: string): Promise<any> {
  const r = await runCli(['sessions', 'show', id, '--json'], { env, cwd });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}
const contents = (s: any) => s.messages.map((m: any) => m.content);

describe('fork, continue and the resume list (tmux)', () => {
  it('/fork: a new session with the history so far; both are listed and go on independently', async () => {
    server().onRequest((req) => ({ content: seen(req) }));
    const { dir, work } = chatWorkspace('adk-fork-');
    const env = serverChatEnv(dir, server().url);
    const raw = join(dir, 'fork.raw');
    startChat(tmux, 'fork', { dir, cwd: work, env, raw });
    await tmux.waitForScreen('fork', (s) => s.includes(PROMPT), 'the prompt');
    const original = /session ([a-z0-9]{8})/.exec(tmux.capture('fork'))![1]!;
    tmux.type('fork', 'the first question');
    tmux.keys('fork', 'Enter');
    await tmux.waitForScreen('fork', (s) => s.includes('seen: the first question') && s.includes(PROMPT), 'the answer');
    tmux.type('fork', '/fork');
    tmux.keys('fork', 'Enter');
    const forked = await tmux.waitForScreen('fork', (s) => /Forked session \w+ into \w+/.test(s), 'the fork');
    const copy = /Forked session \w+ into (\w+)/.exec(forked)![1]!;
    expect(copy).not.toBe(original);
    tmux.type('fork', 'only in the fork');
    tmux.keys('fork', 'Enter');
    await tmux.waitForScreen('fork', (s) => s.includes('seen: the first question | only in the fork'), 'the fork sees the history');
    tmux.type('fork', '/sessions');
    tmux.keys('fork', 'Enter');
    await tmux.waitForScreen('fork', (s) => s.includes(original) && s.includes(copy) && s.includes(PROMPT), 'both sessions listed', 30_000, true);
    await quitChat(tmux, 'fork');
    await tmux.waitForScreen('fork', (s) => s.includes(`adk resume ${copy}`), 'adk left');
    expect(contents(await sessionJson(env, work, original))).toEqual(['the first question', 'seen: the first question']);
    const fork = await sessionJson(env, work, copy);
    expect(contents(fork)).toEqual(['the first question', 'seen: the first question', 'only in the fork', 'seen: the first question | only in the fork']);
    expect(fork.forkedFrom).toBe(original);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('adk resume --fork <id> continues in a new session; the first one stays as it was', async () => {
    server().onRequest((req) => ({ content: seen(req) }));
    const { dir, work } = chatWorkspace('adk-rfork-');
    const env = serverChatEnv(dir, server().url);
    const first = await runCli(['run', '--json', 'the start'], { env, cwd: work });
    const id = jsonLines(first.stdout).find((e) => e.type === 'session').sessionId;
    const r = await runCli(['resume', '--fork', id, '--json', 'a branch'], { env, cwd: work });
    expect(r.code).toBe(0);
    const forkId = jsonLines(r.stdout).find((e) => e.type === 'session').sessionId;
    expect(forkId).not.toBe(id);
    expect(jsonLines(r.stdout).find((e) => e.type === 'done').output).toBe('seen: the start | a branch');
    expect(contents(await sessionJson(env, work, id))).toEqual(['the start', 'seen: the start']);
    expect(contents(await sessionJson(env, work, forkId))).toEqual(['the start', 'seen: the start', 'a branch', 'seen: the start | a branch']);
    // Without a terminal there is no list to pick from: the id is asked for.
    const none = await runCli(['resume'], { env, cwd: work });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give a session id/);
  }, 30_000);

  it('adk chat -c continues the last session of this folder, not a newer one of another folder', async () => {
    server().onRequest((req) => ({ content: seen(req) }));
    const { dir, work } = chatWorkspace('adk-cont-');
    const other = join(dir, 'other');
    mkdirSync(other);
    const env = serverChatEnv(dir, server().url);
    expect((await runCli(['run', 'older here'], { env, cwd: work })).code).toBe(0);
    expect((await runCli(['run', 'latest here'], { env, cwd: work })).code).toBe(0);
    expect((await runCli(['run', 'in the other folder'], { env, cwd: other })).code).toBe(0);
    const raw = join(dir, 'cont.raw');
    startChat(tmux, 'cont', { dir, cwd: work, env, raw, args: ['-c'] });
    await tmux.waitForScreen('cont', (s) => s.includes('Resumed session') && s.includes('latest here') && s.includes(PROMPT), 'the folder’s last session');
    tmux.type('cont', 'and on');
    tmux.keys('cont', 'Enter');
    const screen = await tmux.waitForScreen('cont', (s) => s.includes('seen: latest here | and on'), 'the next turn in it');
    expect(screen).not.toContain('in the other folder');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('adk resume with no id: a list; typing filters it; Enter resumes the one left', async () => {
    server().onRequest((req) => ({ content: seen(req) }));
    const { dir, work } = chatWorkspace('adk-rlist-');
    const env = serverChatEnv(dir, server().url);
    for (const q of ['about apples', 'about bananas', 'about cherries']) expect((await runCli(['run', q], { env, cwd: work })).code).toBe(0);
    const raw = join(dir, 'rlist.raw');
    startChat(tmux, 'rlist', { dir, cwd: work, env, raw, command: 'resume' });
    const list = await tmux.waitForScreen('rlist', (s) => s.includes('Resume which session?') && s.includes('about apples'), 'the list');
    expect(list).toMatch(/❯ about cherries/);
    await sleep(200);
    // Long enough that no random session id (8 characters of [a-z0-9]) holds it.
    tmux.type('rlist', 'bananas');
    const filtered = await tmux.waitForScreen('rlist', (s) => s.includes('Filter: bananas') && !s.includes('about apples'), 'the list filtered');
    expect(filtered).toMatch(/❯ about bananas/);
    expect(filtered).not.toContain('about cherries');
    tmux.keys('rlist', 'Enter');
    await tmux.waitForScreen('rlist', (s) => s.includes('Resumed session') && s.includes(PROMPT), 'the session resumed');
    tmux.type('rlist', 'more');
    tmux.keys('rlist', 'Enter');
    await tmux.waitForScreen('rlist', (s) => s.includes('seen: about bananas | more'), 'the next turn in the picked session');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
