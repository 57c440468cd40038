import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32: hooks in Claude Code's settings format, from a folder's .adk/settings.json, run only
// once the folder's hooks are trusted; a PreToolUse hook blocks `rm` before anyone is asked, and
// the model reads its reason.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

/** A workspace whose .adk/settings.json holds `hooks`. */
function hookedWorkspace(prefix: string, hooks: unknown): { dir: string; work: string } {
  const ws = chatWorkspace(prefix);
  mkdirSync(join(ws.work, '.adk'), { recursive: true });
  writeFileSync(join(ws.work, '.adk', 'settings.json'), JSON.stringify({ hooks }, null, 2));
  return ws;
}

describe('hooks (tmux)', () => {
  it('a trusted PreToolUse hook blocks rm with exit 2, its reason reaches the model, no approval is asked; /hooks lists it', async () => {
    const { dir, work } = hookedWorkspace('adk-hooks-block-', {
      PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: 'sh .adk/no-rm.sh' }] }],
      // The same events the untrusted test below expects never to run: here they do.
      SessionStart: [{ hooks: [{ type: 'command', command: 'touch ran-session-start' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch ran-prompt' }] }],
    });
    writeFileSync(join(work, '.adk', 'no-rm.sh'), `if grep -q '"command":"rm '; then echo "rm is blocked by policy 77: move files to ./trash" >&2; exit 2; fi\n`);
    mkdirSync(join(work, 'build'));
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'user') return { toolCalls: [{ id: 'c_rm', name: 'shell', arguments: { command: 'rm -rf build' } }] };
      return { content: 'Understood, I left build alone.' };
    });
    const raw = join(dir, 'block.raw');
    startChat(tmux, 'block', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('block', (s) => s.includes("Do you trust this folder's hooks?") && s.includes('sh .adk/no-rm.sh'), 'the trust prompt listing the hook');
    await sleep(700); // the prompt ignores keys until it is armed
    tmux.type('block', 'y');
    await tmux.waitForScreen('block', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('block', 'clean the build folder');
    tmux.keys('block', 'Enter');
    const screen = await tmux.waitForScreen('block', (s) => s.includes('Understood, I left build alone.'), 'the answer');
    // Never asked: the hook decided before the approval (the raw output never showed one).
    expect(screen).not.toMatch(/approve once/);
    expect(readFileSync(raw, 'latin1')).not.toContain('approve once');
    const toolMessage = server().chatRequests[1]!.body.messages.find((m: any) => m.role === 'tool');
    expect(String(toolMessage.content)).toContain('rm is blocked by policy 77: move files to ./trash');
    expect(existsSync(join(work, 'build'))).toBe(true);
    expect(existsSync(join(work, 'ran-session-start')) && existsSync(join(work, 'ran-prompt'))).toBe(true);
    tmux.type('block', '/hooks');
    tmux.keys('block', 'Enter');
    await tmux.waitForScreen('block', (s) => /PreToolUse.*shell.*sh \.adk\/no-rm\.sh.*\.adk\/settings\.json/.test(s), 'the hooks listed');
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);

  it("an untrusted folder's hooks never run (declined at the prompt), and the session goes on without them", async () => {
    const { dir, work } = hookedWorkspace('adk-hooks-untrusted-', {
      SessionStart: [{ hooks: [{ type: 'command', command: 'touch ran-session-start' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch ran-prompt' }] }],
    });
    server().onRequest(() => ({ content: 'Hello from the model.' }));
    const raw = join(dir, 'untrusted.raw');
    startChat(tmux, 'untrusted', { dir, cwd: work, raw, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('untrusted', (s) => s.includes("Do you trust this folder's hooks?"), 'the trust prompt');
    await sleep(700);
    tmux.type('untrusted', 'n');
    await tmux.waitForScreen('untrusted', (s) => s.includes(PROMPT) && s.includes('are not run'), 'the prompt and the notice');
    tmux.type('untrusted', 'hi');
    tmux.keys('untrusted', 'Enter');
    await tmux.waitForScreen('untrusted', (s) => s.includes('Hello from the model.'), 'the answer');
    expect(existsSync(join(work, 'ran-session-start'))).toBe(false);
    expect(existsSync(join(work, 'ran-prompt'))).toBe(false);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 60_000);
});
