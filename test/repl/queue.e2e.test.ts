import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: typing while a run works. Enter queues the message (shown as queued); it is sent when
// the turn ends; Esc takes queued messages back into the box instead of stopping the run.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const users = (body: any) => body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content);

function chat(name: string) {
  const { dir, work } = chatWorkspace(`adk-queue-${name}-`);
  startChat(tmux, name, { dir, cwd: work, env: serverChatEnv(dir, server().url) });
}

describe('queued messages (tmux)', () => {
  it('Enter during a run queues the message; it is sent once the answer is complete', async () => {
    server().enqueue({ content: 'one two three four five six seven eight nine ten', chunkSize: 4, chunkDelayMs: 120 }, { content: 'second answer' });
    chat('queue');
    await tmux.waitForScreen('queue', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('queue', 'first question');
    tmux.keys('queue', 'Enter');
    await tmux.waitForScreen('queue', (s) => s.includes('two'), 'the answer streaming');
    tmux.type('queue', 'and a follow-up');
    tmux.keys('queue', 'Enter');
    await tmux.waitForScreen('queue', (s) => s.includes('queued (Esc edits): and a follow-up'), 'the queued message');
    expect(server().chatRequests).toHaveLength(1);
    await tmux.waitForScreen('queue', (s) => s.includes('second answer'), 'the second answer');
    expect(users(server().chatRequests[1]!.body)).toEqual(['first question', 'and a follow-up']);
    expect(server().chatRequests[1]!.body.messages.at(-2)).toMatchObject({ role: 'assistant', content: 'one two three four five six seven eight nine ten' });
  }, 60_000);

  it('Esc takes a queued message back into the box (the run goes on); the next Esc stops the run', async () => {
    server().enqueue({ content: 'a b c d e f g h i j k l m n o p q r s t u v w x y z', chunkSize: 2, chunkDelayMs: 150 });
    chat('queueesc');
    await tmux.waitForScreen('queueesc', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('queueesc', 'spell it');
    tmux.keys('queueesc', 'Enter');
    await tmux.waitForScreen('queueesc', (s) => /\bc\b/.test(s), 'the answer streaming');
    tmux.type('queueesc', 'never mind');
    tmux.keys('queueesc', 'Enter');
    await tmux.waitForScreen('queueesc', (s) => s.includes('queued (Esc edits): never mind'), 'the queued message');
    tmux.keys('queueesc', 'Escape');
    await tmux.waitForScreen('queueesc', (s) => s.includes('› never mind') && !s.includes('queued'), 'the text back in the box');
    // The run goes on: more of the answer arrives.
    await tmux.waitForScreen('queueesc', (s) => /\bh i\b/.test(s), 'the answer still streaming');
    tmux.keys('queueesc', 'Escape');
    await tmux.waitForScreen('queueesc', (s) => /cancelled/i.test(s) && s.includes('› never mind'), 'the run stopped, the text still in the box');
    expect(tmux.capture('queueesc')).not.toMatch(/x y z/);
    expect(server().chatRequests).toHaveLength(1);
  }, 60_000);
});

describe('a queued message during a tool loop (tmux)', () => {
  it('joins the run after the current tool calls, before the next model call, and is not sent again', async () => {
    server().onRequest((req) => {
      const msgs = req.body.messages;
      const last = msgs.at(-1);
      if (last.role === 'user' && last.content === 'count the files') return { toolCalls: [{ id: 'c_ls', name: 'list_dir', arguments: { path: '.' } }], delayMs: 2500 };
      if (last.role === 'user' && last.content === 'and say hi') return { content: 'Listed. And hi!' };
      return { content: `plain answer to ${String(last.content).slice(0, 20)}` };
    });
    chat('inject');
    await tmux.waitForScreen('inject', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('inject', 'count the files');
    tmux.keys('inject', 'Enter');
    await tmux.waitForScreen('inject', (s) => s.includes('esc to cancel'), 'the run working');
    tmux.type('inject', 'and say hi');
    tmux.keys('inject', 'Enter');
    await tmux.waitForScreen('inject', (s) => s.includes('queued (Esc edits): and say hi'), 'the queued message');
    const done = await tmux.waitForScreen('inject', (s) => s.includes('Listed. And hi!') && s.includes(PROMPT) && !s.includes('esc to cancel'), 'the answer to both', 20_000);
    expect(done).not.toContain('queued');
    // Shown where it joined: after the tool row, before the answer.
    expect(done.indexOf('list_dir')).toBeLessThan(done.indexOf('› and say hi'));
    expect(done.indexOf('› and say hi')).toBeLessThan(done.indexOf('Listed. And hi!'));
    const reqs = server().chatRequests;
    expect(reqs).toHaveLength(2);
    expect(reqs[1]!.body.messages.slice(-3).map((m: any) => m.role)).toEqual(['assistant', 'tool', 'user']);
    expect(users(reqs[1]!.body)).toEqual(['count the files', 'and say hi']);
  }, 60_000);
});
