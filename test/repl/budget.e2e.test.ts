import { describe, expect, it } from 'vitest';
import { runCli, useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 44: a budget reached in the REPL is an interrupt in the approval box. Enter raises it (to
// twice the limit) and the same run goes on from where it stopped; `stop` ends it incomplete. A
// headless run stopped at its budget opens in `adk resume ID` at the same box.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const tick = (i: number) => ({ toolCalls: [{ id: `t${i}`, name: 'current_time', arguments: {} }] });

describe('budgets in the REPL (tmux)', () => {
  it('--max-model-calls 2: the box says what was spent; Enter raises it and the run goes on; stop ends the next one', async () => {
    server().enqueue(tick(1), tick(2), tick(3), { content: 'Finished ticking.' }, tick(5), tick(6), { content: 'never asked' });
    const { dir, work } = chatWorkspace('adk-budget-repl-');
    startChat(tmux, 'budget', { dir, cwd: work, env: serverChatEnv(dir, server().url), args: ['--max-model-calls', '2'] });
    await tmux.waitForScreen('budget', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('budget', 'tick away');
    tmux.keys('budget', 'Enter');
    const box = await tmux.waitForScreen('budget', (s) => s.includes('budget reached') && s.includes('raise to ›'), 'the budget box');
    expect(box).toContain('max_model_calls: 2 spent of 2');
    expect(box).toContain('Enter raises it to 4');
    expect(server().chatRequests).toHaveLength(2);
    await sleep(500); // the box takes keys once it has been seen
    tmux.keys('budget', 'Enter');
    const done = await tmux.waitForScreen('budget', (s) => s.includes('Finished ticking.'), 'the answer after the raise', 30_000);
    expect(done).toContain('raised max_model_calls to 4');
    expect(server().chatRequests).toHaveLength(4);
    // The run went on with its history: the third request carries the first two calls' results.
    expect(server().chatRequests[2]!.body.messages.filter((m: { role: string }) => m.role === 'tool')).toHaveLength(2);

    // A new turn starts a fresh budget of 2; at the box, `stop` ends it incomplete.
    tmux.type('budget', 'again');
    tmux.keys('budget', 'Enter');
    await tmux.waitForScreen('budget', (s) => server().chatRequests.length === 6 && s.includes('raise to ›'), 'the second budget box');
    await sleep(500);
    tmux.type('budget', 'stop');
    tmux.keys('budget', 'Enter');
    const stopped = await tmux.waitForScreen('budget', (s) => s.includes('budget reached: max_model_calls (2 spent of 2)'), 'the run ended at its budget', 30_000);
    expect(stopped).toContain('⊘ stopped at max_model_calls');
    expect(server().chatRequests).toHaveLength(6);
    await quitChat(tmux, 'budget');
  }, 90_000);

  it('adk resume ID opens a headless run that stopped at its budget at the same box', async () => {
    server().enqueue(tick(1), tick(2), { content: 'Done after resuming.' });
    const { dir, work } = chatWorkspace('adk-budget-resume-');
    const env = serverChatEnv(dir, server().url);
    const run = await runCli(['run', '--json', '--max-model-calls', '1', 'tick'], { env, cwd: work });
    expect(run.code).toBe(1);
    const id = run.lines[0]!.sessionId as string;
    startChat(tmux, 'resumed', { dir, cwd: work, env, command: 'resume', args: [id] });
    const box = await tmux.waitForScreen('resumed', (s) => s.includes('budget reached') && s.includes('raise to ›'), 'the budget box');
    expect(box).toContain('max_model_calls: 1 spent of 1');
    await sleep(500);
    tmux.type('resumed', '3');
    tmux.keys('resumed', 'Enter');
    await tmux.waitForScreen('resumed', (s) => s.includes('Done after resuming.'), 'the answer', 30_000);
    expect(server().chatRequests).toHaveLength(3);
    await quitChat(tmux, 'resumed');
  }, 90_000);
});
