import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from '../repl/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from '../repl/tmux.js';

// Issue 32: the permission menu (1/2/3 and ↑/↓ Enter), option 3's text reaching the model, and a
// prefix rule chosen with 2 that survives a restart and is removed with /permissions. useTmux
// fails the file if any pane cleared the terminal.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const MENU = '3. No, and tell the model what to do instead';
const ARM = { ADK_SHELL_SANDBOX: 'off', ADK_PROMPT_ARM_MS: '100' };
const lastTool = (body: any) => [...body.messages].reverse().find((m: any) => m.role === 'tool');

describe('permission menu (tmux)', () => {
  it('1 approves, ↓↓ Enter is "No, and tell the model": the text reaches the model', async () => {
    server().onRequest((req) => {
      const tools = req.body.messages.filter((m: any) => m.role === 'tool');
      if (tools.length === 0) return { toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: 'echo first-ran' } }] };
      if (tools.length === 1) return { toolCalls: [{ id: 'c2', name: 'shell', arguments: { command: 'echo second' } }] };
      return { content: 'Understood.' };
    });
    const { dir, work } = chatWorkspace('adk-perm-menu-');
    startChat(tmux, 'menu', { dir, cwd: work, env: serverChatEnv(dir, server().url, ARM) });
    await tmux.waitForScreen('menu', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('menu', 'go');
    tmux.keys('menu', 'Enter');
    const asked = await tmux.waitForScreen('menu', (s) => s.includes(MENU) && s.includes('echo first-ran'), 'the menu');
    expect(asked).toContain('❯ 1. Yes');
    expect(asked).toMatch(/↑\/↓ Enter\S* choose/);
    await sleep(500);
    tmux.type('menu', '1');
    await tmux.waitForScreen('menu', (s) => s.includes(MENU) && s.includes('echo second'), 'the second approval');
    await sleep(500);
    tmux.keys('menu', 'Down');
    tmux.keys('menu', 'Down');
    await tmux.waitForScreen('menu', (s) => s.includes(`❯ ${MENU}`), 'choice 3 highlighted');
    tmux.keys('menu', 'Enter');
    await tmux.waitForScreen('menu', (s) => s.includes('What should the model do instead?'), 'the text field');
    tmux.type('menu', 'print it with printf');
    tmux.keys('menu', 'Enter');
    await tmux.waitForScreen('menu', (s) => s.includes('Understood.'), 'the answer');
    const requests = server().chatRequests;
    expect(lastTool(requests[1]!.body).content).toContain('first-ran');
    expect(lastTool(requests[2]!.body).content).toBe('The user rejected this shell call: print it with printf');
  }, 40_000);

  it('a call whose arguments do not fit the schema is never shown for approval; the model gets the error (item 9)', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'I will fix the arguments.' };
      return { toolCalls: [{ id: 'bad', name: 'shell', arguments: { cmd: 'echo wrong-shape' } }] };
    });
    const { dir, work } = chatWorkspace('adk-perm-invalid-');
    startChat(tmux, 'invalid', { dir, cwd: work, env: serverChatEnv(dir, server().url, ARM) });
    await tmux.waitForScreen('invalid', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('invalid', 'go');
    tmux.keys('invalid', 'Enter');
    const screen = await tmux.waitForScreen('invalid', (s) => s.includes('I will fix the arguments.'), 'the answer', 20_000, true);
    expect(screen).not.toContain(MENU);
    expect(screen).not.toContain('wants to run shell');
    expect(lastTool(server().chatRequests[1]!.body).content).toMatch(/invalid arguments for 'shell'/);
  }, 30_000);

  it('2 saves a prefix rule in .adk/settings.local.json: the next adk chat runs it unasked; /permissions removes it', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: `Done: ${last.content.trim()}` };
      return { toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: `echo ${last.content.includes('again') ? 'hello-rule again' : 'hello-rule'}` } }] };
    });
    const { dir, work } = chatWorkspace('adk-perm-rule-');
    const env = serverChatEnv(dir, server().url, ARM);
    startChat(tmux, 'first', { dir, cwd: work, env });
    await tmux.waitForScreen('first', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('first', 'run it');
    tmux.keys('first', 'Enter');
    await tmux.waitForScreen('first', (s) => s.includes("2. Yes, and don't ask again for shell(echo hello-rule*) in this folder"), 'choice 2 with its rule');
    await sleep(300);
    tmux.type('first', '2');
    await tmux.waitForScreen('first', (s) => s.includes('Done: hello-rule') && s.includes(PROMPT), 'the answer');
    const local = join(work, '.adk', 'settings.local.json');
    expect(JSON.parse(readFileSync(local, 'utf8'))).toEqual({ permissions: { allow: ['shell(echo hello-rule*)'] } });
    tmux.keys('first', 'C-d');
    await tmux.waitForScreen('first', (s) => s.includes('Continue it with: adk resume'), 'adk to exit');

    // A new adk chat in the same folder: not asked.
    startChat(tmux, 'second', { dir, cwd: work, env });
    await tmux.waitForScreen('second', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('second', 'run it again');
    tmux.keys('second', 'Enter');
    const ran = await tmux.waitForScreen('second', (s) => s.includes('Done: hello-rule again'), 'the call run unasked');
    expect(ran).not.toContain(MENU);

    tmux.type('second', '/permissions');
    tmux.keys('second', 'Enter');
    const listed = await tmux.waitForScreen('second', (s) => s.includes('Remove a rule?'), 'the rule picker');
    expect(listed).toContain(`allow shell(echo hello-rule*)`);
    expect(listed).toContain(local);
    tmux.keys('second', 'Enter');
    await tmux.waitForScreen('second', (s) => s.includes('Removed allow shell(echo hello-rule*)'), 'the removal');
    expect(existsSync(local) && JSON.parse(readFileSync(local, 'utf8'))).toEqual({ permissions: { allow: [] } });
    // In force at once: the same call asks again.
    tmux.type('second', 'run it again');
    tmux.keys('second', 'Enter');
    await tmux.waitForScreen('second', (s) => s.includes(MENU), 'asked again');
  }, 60_000);
});
