import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { runCli } from '../support/cli.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// A terminal that closes (SIGHUP) or a `kill` (SIGTERM) ends adk chat the way leaving it does: the
// running turn is cancelled and saved, and no shell command it started goes on without it.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
// Unique per test process and pane, so no test sees another's commands (or what a failed one left).
const tag = process.pid % 1000;
const commandsOf = (pane: string) => {
  const n = pane === 'hup' ? 1 : 2;
  return { background: `sleep 30${n}1.${tag}`, foreground: `sleep 30${n}2.${tag}` };
};
const alive = (command: string): string => {
  try {
    return execFileSync('pgrep', ['-f', command], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};
const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (test: () => boolean, what: string, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
};

/** A chat with one command moved to the background and another running in the foreground. */
async function chatWithCommands(name: string, script: { before?: string; after?: string } = {}): Promise<{ dir: string; sessionId: string; env: Record<string, string>; adkPid: number; stopped: () => boolean }> {
  const { background, foreground } = commandsOf(name);
  server().onRequest((req) => {
    const last = req.body.messages.at(-1);
    if (last.role === 'user' && last.content === 'start the server') return { toolCalls: [{ id: 'c_bg', name: 'shell', arguments: { command: background } }] };
    if (last.role === 'tool' && last.tool_call_id === 'c_bg') return { content: 'It runs in the background.' };
    if (last.role === 'user' && last.content === 'build it') return { toolCalls: [{ id: 'c_fg', name: 'shell', arguments: { command: foreground } }] };
    return { content: 'ok' };
  });
  const { dir, work } = chatWorkspace(`adk-${name}-`);
  const env = serverChatEnv(dir, server().url, { ADK_SHELL_SANDBOX: 'off' });
  startChat(tmux, name, { dir, cwd: work, env, ...script });
  const screen = await tmux.waitForScreen(name, (s) => s.includes(PROMPT), 'the prompt');
  const sessionId = /session (\w+)/.exec(screen)![1]!;
  for (const [message, command] of [['start the server', background], ['build it', foreground]] as const) {
    tmux.type(name, message);
    tmux.keys(name, 'Enter');
    await tmux.waitForScreen(name, (s) => s.includes('approve once'), `the approval of ${command}`);
    await sleep(500);
    tmux.keys(name, 'y');
    await tmux.waitForScreen(name, (s) => s.includes('ctrl-b to background'), `${command} running`, 10_000);
    if (command === background) {
      tmux.keys(name, 'C-b');
      await tmux.waitForScreen(name, (s) => s.includes('It runs in the background.') && !s.includes('esc to cancel'), 'the turn over', 10_000);
    }
  }
  expect(alive(background)).not.toBe('');
  expect(alive(foreground)).not.toBe('');
  const adkPid = Number(execFileSync('pgrep', ['-P', tmux.display(name, '#{pane_pid}')], { encoding: 'utf8' }).trim());
  return { dir, sessionId, env, adkPid, stopped: () => alive(background) === '' && alive(foreground) === '' };
}

const sessionStatus = async (env: Record<string, string>, id: string): Promise<string> => {
  const r = await runCli(['sessions', 'show', id, '--json'], { env });
  return JSON.parse(r.stdout).status;
};

describe('adk chat ends cleanly when its terminal closes or it is told to stop', () => {
  it('SIGHUP (the terminal closed): the commands it started stop, the turn is saved as cancelled', async () => {
    // The pane's shell outlives the terminal (it ignores SIGHUP; adk does not inherit that) to write adk's exit status.
    const { dir, sessionId, env, adkPid, stopped } = await chatWithCommands('hup', { before: `trap '' HUP`, after: 'echo $? > status' });
    tmux.run('kill-session', '-t', 'hup');
    await until(() => !running(adkPid), 'adk to leave');
    // Ended by the SIGHUP once saved (129), not aborted by Node restoring a terminal that is gone (134).
    await until(() => existsSync(join(dir, 'work', 'status')), 'the exit status');
    expect(readFileSync(join(dir, 'work', 'status'), 'utf8').trim()).toBe('129');
    await until(stopped, 'both commands to stop');
    expect(await sessionStatus(env, sessionId)).toBe('cancelled');
  }, 60_000);

  it('SIGTERM: the same, and the terminal is given back as it was (exit 143)', async () => {
    const { sessionId, env, adkPid, stopped } = await chatWithCommands('term', {
      after: `echo "adk exited $?"; echo "modes: $(stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')."`,
    });
    process.kill(adkPid, 'SIGTERM');
    const screen = await tmux.waitForScreen('term', (s) => s.includes('modes:'), 'adk to exit and the terminal modes', 10_000);
    expect(screen).toContain('adk exited 143');
    expect(screen).toContain(`Session ${sessionId} saved.`);
    expect(screen).toContain('modes: icanon echo .');
    // The last frame shows the turn settled, not a spinner frozen mid-run.
    expect(screen).not.toContain('esc to cancel');
    await until(stopped, 'both commands to stop');
    expect(await sessionStatus(env, sessionId)).toBe('cancelled');
  }, 60_000);
});
