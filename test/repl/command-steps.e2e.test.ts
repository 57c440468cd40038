import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, custom commands as Claude Code runs them: `!`cmd`` approved and run before the prompt is
// sent (its output in the prompt), `model:` answering that turn, `allowed-tools` granted for that turn only.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const APPROVAL = 'approve once';

const userMessages = (i: number): string[] => server().chatRequests[i]!.body.messages.filter((m: any) => m.role === 'user').map((m: any) => String(m.content));

function command(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), text);
}

describe('custom command steps (tmux)', () => {
  it('!`echo hi`: shown for approval, run once approved, its output in the prompt the model gets', async () => {
    const { dir, work } = chatWorkspace('adk-cmd-bang-');
    command(join(work, '.adk', 'commands'), 'greet', '---\ndescription: Greet with the output\n---\nGreet them.\nOutput: !`echo hi`\n');
    server().onRequest(() => ({ content: 'Greeted.' }));
    const raw = join(dir, 'bang.raw');
    startChat(tmux, 'bang', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('bang', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('bang', '/greet');
    await sleep(150);
    tmux.keys('bang', 'Enter');
    await tmux.waitForScreen('bang', (s) => s.includes(APPROVAL) && s.includes('echo hi'), 'the approval of echo hi');
    // Nothing reached the model before the person said yes.
    expect(server().chatRequests).toHaveLength(0);
    await sleep(700);
    tmux.type('bang', 'y');
    await tmux.waitForScreen('bang', (s) => s.includes('Greeted.'), 'the answer');
    expect(server().chatRequests).toHaveLength(1);
    expect(userMessages(0).at(-1)).toBe('Greet them.\nOutput: hi');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 30_000);

  it("a folder's command file asks before its allowed-tools apply; rejecting its !`cmd` sends nothing", async () => {
    const { dir, work } = chatWorkspace('adk-cmd-reject-');
    command(join(work, '.adk', 'commands'), 'risky', '---\nallowed-tools: Bash(echo:*)\n---\nLook: !`echo hi`\n');
    server().onRequest(() => ({ content: 'Should not be asked.' }));
    const raw = join(dir, 'reject.raw');
    startChat(tmux, 'reject', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('reject', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('reject', '/risky');
    await sleep(150);
    tmux.keys('reject', 'Enter');
    await tmux.waitForScreen('reject', (s) => s.includes('comes with this folder') && s.includes('shell(echo *)'), 'the trust question');
    await sleep(700);
    tmux.type('reject', 'n');
    tmux.keys('reject', 'Enter');
    await tmux.waitForScreen('reject', (s) => s.includes(APPROVAL) && s.includes('echo hi'), 'the approval of echo hi');
    await sleep(700);
    tmux.type('reject', 'n');
    await sleep(100);
    tmux.keys('reject', 'Enter');
    await tmux.waitForScreen('reject', (s) => /\/risky was not run: you rejected `echo hi`\. Nothing was sent to the model\./.test(s.replace(/\n\s*/g, ' ')) && s.includes(PROMPT), 'the refusal');
    expect(server().chatRequests).toHaveLength(0);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 30_000);

  it("model: the named model answers that turn only; an unknown one is said once and the session's model answers", async () => {
    const { dir, work } = chatWorkspace('adk-cmd-model-');
    command(join(work, '.adk', 'commands'), 'cheap', '---\nmodel: second-model\n---\nSummarise.\n');
    command(join(work, '.adk', 'commands'), 'typo', '---\nmodel: no-such-model\n---\nSummarise.\n');
    server().setModels([{ id: 'gpt-test' }, { id: 'second-model' }]);
    server().onRequest((req) => ({ content: `Answer from ${req.body.model}.` }));
    const raw = join(dir, 'model.raw');
    startChat(tmux, 'model', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('model', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('model', '/typo');
    await sleep(150);
    tmux.keys('model', 'Enter');
    // Issue 48 item 4: a model the endpoint does not serve refused the command whole.
    await tmux.waitForScreen('model', (s) => s.includes("model 'no-such-model' is not offered") && s.includes('this turn uses gpt-test') && s.includes('Answer from gpt-test.'), 'the notice and the answer');
    tmux.type('model', '/cheap');
    await sleep(150);
    tmux.keys('model', 'Enter');
    await tmux.waitForScreen('model', (s) => s.includes('Answer from second-model.'), 'the answer of the command model');
    tmux.type('model', 'and now?');
    tmux.keys('model', 'Enter');
    await tmux.waitForScreen('model', (s) => (s.match(/Answer from gpt-test\./g) ?? []).length === 2, 'the answer of the session model');
    expect(server().chatRequests.map((r) => r.body.model)).toEqual(['gpt-test', 'second-model', 'gpt-test']);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 40_000);

  it('allowed-tools: Bash(echo:*): the model runs echo unasked during that turn; the next turn asks again', async () => {
    const { dir, work } = chatWorkspace('adk-cmd-tools-');
    command(join(dir, 'home', 'commands'), 'echoer', '---\nallowed-tools: Bash(echo:*)\n---\nEcho something.\n');
    let n = 0;
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: `Echoed: ${String(last.content).split('\n')[0]}.` };
      n += 1;
      return { toolCalls: [{ id: `c_echo_${n}`, name: 'shell', arguments: { command: `echo granted-${n}` } }] };
    });
    const raw = join(dir, 'tools.raw');
    startChat(tmux, 'tools', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' }) });
    await tmux.waitForScreen('tools', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('tools', '/echoer');
    await sleep(150);
    tmux.keys('tools', 'Enter');
    await tmux.waitForScreen('tools', (s) => s.includes('Echoed: granted-1.') && s.includes(PROMPT), 'the command turn done');
    expect(readFileSync(raw, 'latin1')).not.toContain(APPROVAL);
    tmux.type('tools', 'once more');
    tmux.keys('tools', 'Enter');
    await tmux.waitForScreen('tools', (s) => s.includes(APPROVAL) && s.includes('echo granted-2'), 'the approval of the next turn');
    await sleep(700);
    tmux.type('tools', 'y');
    await tmux.waitForScreen('tools', (s) => s.includes('Echoed: granted-2.'), 'the second turn done');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 40_000);
});
