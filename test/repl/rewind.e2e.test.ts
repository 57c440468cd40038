import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: `/rewind` restores the files a turn's write_file and edit_file changed and the
// conversation before it; the model's next request carries nothing of the rewound turns.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const AGENTS = 'version: 1\ndefault: helper\nagents:\n  helper:\n    description: Edits files.\n    instruction: Help.\n    tools: [read_file, write_file, edit_file]\n';
const userTexts = (req: any): string[] => req.body.messages.filter((m: any) => m.role === 'user').map((m: any) => String(m.content));

describe('/rewind (tmux)', () => {
  it('restores two edited files and the conversation; Esc Esc opens the same list', async () => {
    server().onRequest((req) => {
      const msgs = req.body.messages;
      const lastUser = msgs.map((m: any) => m.role).lastIndexOf('user');
      const results = msgs.slice(lastUser).filter((m: any) => m.role === 'tool').length;
      const said = String(msgs[lastUser].content);
      if (said === 'hello there') return { content: 'Hi.' };
      if (said === 'edit the files') {
        if (results === 0) return { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'alpha by the model\n' } }] };
        if (results === 1) return { toolCalls: [{ name: 'edit_file', arguments: { path: 'b.txt', old: 'beta', new: 'BETA by the model' } }] };
        return { content: 'Edited both.' };
      }
      return { content: `seen: ${userTexts(req).join(' | ')}` };
    });
    const { dir, work } = chatWorkspace('adk-rewind-');
    writeFileSync(join(work, 'agents.yaml'), AGENTS);
    writeFileSync(join(work, 'a.txt'), 'alpha\n');
    writeFileSync(join(work, 'b.txt'), 'beta\n');
    const raw = join(dir, 'rewind.raw');
    startChat(tmux, 'rw', { dir, cwd: work, env: serverChatEnv(dir, server().url), raw, size: [100, 30] });
    await tmux.waitForScreen('rw', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('rw', 'hello there');
    tmux.keys('rw', 'Enter');
    await tmux.waitForScreen('rw', (s) => s.includes('Hi.') && s.includes(PROMPT), 'the first answer');
    tmux.type('rw', 'edit the files');
    tmux.keys('rw', 'Enter');
    await tmux.waitForScreen('rw', (s) => s.includes('Edited both.') && s.includes(PROMPT), 'the edits');
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('alpha by the model\n');
    expect(readFileSync(join(work, 'b.txt'), 'utf8')).toBe('BETA by the model\n');

    tmux.type('rw', '/rewind');
    tmux.keys('rw', 'Enter');
    const list = await tmux.waitForScreen('rw', (s) => s.includes('Rewind to before which message?') && s.includes('hello there'), 'the list of messages');
    expect(list).toMatch(/❯ edit the files\s+the last message/);
    await sleep(300);
    tmux.keys('rw', 'Enter');
    const what = await tmux.waitForScreen('rw', (s) => s.includes('restore what?') && s.includes('Restoring the code changes'), 'the choices and the files', 30_000, true);
    // The files it will change are shown before anything is done.
    expect(what).toContain('Restoring the code changes 2 files');
    expect(what).toMatch(/M a\.txt\s*\n\s*M b\.txt/);
    expect(what).toMatch(/❯ Conversation and code/);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('alpha by the model\n');
    await sleep(300);
    tmux.keys('rw', 'Enter');
    await tmux.waitForScreen('rw', (s) => s.includes('Rewound the conversation') && s.includes('› edit the files'), 'the rewind, the message back in the box');
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readFileSync(join(work, 'b.txt'), 'utf8')).toBe('beta\n');

    // The message comes back to edit: send something else instead.
    tmux.keys('rw', 'C-u');
    tmux.type('rw', 'what now?');
    tmux.keys('rw', 'Enter');
    await tmux.waitForScreen('rw', (s) => s.includes('seen: hello there | what now?'), 'the next answer');
    const last = server().requests.at(-1)!;
    const sent = JSON.stringify(last.body.messages);
    expect(sent).not.toContain('edit the files');
    expect(sent).not.toContain('Edited both.');
    expect(sent).not.toContain('by the model');

    // Esc Esc on the empty box opens the same list; Esc leaves it.
    await sleep(300);
    tmux.keys('rw', 'Escape');
    await sleep(150);
    tmux.keys('rw', 'Escape');
    await tmux.waitForScreen('rw', (s) => s.includes('Rewind to before which message?') && s.includes('❯ what now?'), 'the list again');
    await sleep(300);
    tmux.keys('rw', 'Escape');
    await tmux.waitForScreen('rw', (s) => s.includes(PROMPT), 'the prompt again');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it('the checkpoints survive adk resume: code only restores the file and keeps the conversation', async () => {
    server().onRequest((req) => {
      const msgs = req.body.messages;
      if (msgs.at(-1).role === 'tool') return { content: 'Wrote it.' };
      if (String(msgs.at(-1).content) === 'write c') return { toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'gamma by the model\n' } }] };
      return { content: `seen: ${userTexts(req).join(' | ')}` };
    });
    const { dir, work } = chatWorkspace('adk-rewind2-');
    writeFileSync(join(work, 'agents.yaml'), AGENTS);
    writeFileSync(join(work, 'c.txt'), 'gamma\n');
    const env = serverChatEnv(dir, server().url);
    startChat(tmux, 'first', { dir, cwd: work, env });
    const welcome = await tmux.waitForScreen('first', (s) => s.includes(PROMPT), 'the prompt');
    const id = /session ([a-z0-9]{8})/.exec(welcome)![1]!;
    tmux.type('first', 'write c');
    tmux.keys('first', 'Enter');
    await tmux.waitForScreen('first', (s) => s.includes('Wrote it.') && s.includes(PROMPT), 'the write');
    tmux.keys('first', 'C-d');
    await tmux.waitForScreen('first', (s) => s.includes(`adk resume ${id}`), 'adk left');
    expect(readFileSync(join(work, 'c.txt'), 'utf8')).toBe('gamma by the model\n');

    startChat(tmux, 'again', { dir, cwd: work, env, command: 'resume', args: [id] });
    await tmux.waitForScreen('again', (s) => s.includes(`Resumed session ${id}`) && s.includes(PROMPT), 'the resumed session');
    tmux.type('again', '/rewind');
    tmux.keys('again', 'Enter');
    await tmux.waitForScreen('again', (s) => s.includes('❯ write c'), 'the list');
    await sleep(300);
    tmux.keys('again', 'Enter');
    await tmux.waitForScreen('again', (s) => s.includes('❯ Conversation and code') && s.includes('M c.txt'), 'the choices', 30_000, true);
    await sleep(300);
    tmux.keys('again', 'Down', 'Down');
    await tmux.waitForScreen('again', (s) => s.includes('❯ Code only'), 'code only picked');
    tmux.keys('again', 'Enter');
    await tmux.waitForScreen('again', (s) => s.includes('Restored 1 file: c.txt') && s.includes(PROMPT), 'the file restored');
    expect(readFileSync(join(work, 'c.txt'), 'utf8')).toBe('gamma\n');
    tmux.type('again', 'still there?');
    tmux.keys('again', 'Enter');
    await tmux.waitForScreen('again', (s) => s.includes('seen: write c | still there?'), 'the conversation kept');
  }, 60_000);
});
