import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ADK_BIN } from '../support/cli.js';
import { removeTempDirs, sleep, tempDir } from './helpers.js';

/** A tmux server of its own (its own socket), so parallel tests never share panes. */
export class Tmux {
  readonly socket = `adk-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  /** Raw output files of the panes `startChat` opened, by pane: checked for terminal clears after the file. */
  readonly rawFiles = new Map<string, string>();

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  }

  /** Starts `command` in a detached session `name` with a fixed-size window. */
  start(name: string, command: string, columns = 100, rows = 30, env: Record<string, string> = {}): void {
    this.run('new-session', '-d', '-s', name, '-x', String(columns), '-y', String(rows), ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), command);
  }

  /** The visible screen, or with `history` everything from the start of the scrollback. */
  capture(target: string, history = false): string {
    return this.run('capture-pane', '-p', '-t', target, ...(history ? ['-S', '-', '-E', '-'] : []));
  }

  /** Types text literally (as one chunk, like a person's keystrokes arrive). */
  type(target: string, text: string): void {
    this.run('send-keys', '-t', target, '-l', text);
  }

  /** Sends named keys: Enter, C-c, Escape, y… */
  keys(target: string, ...keys: string[]): void {
    this.run('send-keys', '-t', target, ...keys);
  }

  /** Appends everything the pane's program writes (raw bytes, escapes included) to `file`. */
  pipe(target: string, file: string): void {
    this.run('pipe-pane', '-o', '-t', target, `cat >> '${file}'`);
  }

  display(target: string, format: string): string {
    return this.run('display-message', '-p', '-t', target, format).trim();
  }

  /** Polls the screen (with `history`, the whole scrollback) until `test` passes. */
  async waitForScreen(target: string, test: (screen: string) => boolean, what: string, timeoutMs = 30_000, history = false): Promise<string> {
    const end = Date.now() + timeoutMs;
    let screen = '';
    for (;;) {
      screen = this.capture(target, history);
      if (test(screen)) return screen;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      await sleep(50);
    }
  }

  /** Ends the server (and what runs in its panes) and removes its socket file. */
  kill(): void {
    let socketPath = '';
    try {
      socketPath = this.run('display-message', '-p', '#{socket_path}').trim();
      this.run('kill-server');
    } catch {
      // Never started, or already gone.
    }
    if (socketPath) rmSync(socketPath, { force: true });
  }
}

/** A tmux server for this test file, killed (and the file's temp folders removed) after it. */
export function useTmux(): Tmux {
  const tmux = new Tmux();
  afterAll(() => {
    tmux.kill();
    // Issue 15: no scenario ever clears the terminal or its scrollback.
    const cleared = [...tmux.rawFiles].filter(([, file]) => existsSync(file) && clearsIn(readFileSync(file, 'latin1')) > 0).map(([pane]) => pane);
    removeTempDirs();
    if (cleared.length) throw new Error(`the REPL cleared the terminal (ESC[2J/ESC[3J) in pane(s): ${cleared.join(', ')}`);
  });
  return tmux;
}

/**
 * Starts `adk chat` in pane `name` (100×30 unless `size`, xterm-256color) in `cwd`, with only `env`
 * set for adk (ADK_STORE unset), from a script in `dir`. With `raw`, the pane's output bytes are
 * appended to that file from the start (before adk writes anything). `before` and `after` run in the pane's shell before adk starts and once it exits.
 * `command` runs another adk command than `chat` (`resume`), with `args` after it.
 */
export function startChat(tmux: Tmux, name: string, o: { dir: string; cwd: string; env: Record<string, string>; size?: [number, number]; raw?: string; args?: string[]; before?: string; after?: string; command?: string }): void {
  const script = join(o.dir, `${name}.sh`);
  const exports = Object.entries(o.env).map(([k, v]) => `export ${k}='${v}'`).join('\n');
  // Every pane's raw output is kept (checked for clears after the file); adk waits for the pipe to be
  // attached (a marker file) so no byte is missed.
  const raw = o.raw ?? join(o.dir, `${name}.raw`);
  tmux.rawFiles.set(name, raw);
  const wait = `while [ ! -e '${raw}.ready' ]; do sleep 0.05; done\n`;
  writeFileSync(script, `unset ADK_STORE\n${exports}\ncd '${o.cwd}'\n${wait}${o.before ? `${o.before}\n` : ''}node '${ADK_BIN}' ${o.command ?? 'chat'}${(o.args ?? []).map((a) => ` '${a}'`).join('')}\n${o.after ? `${o.after}\n` : ''}exec sh\n`);
  const [columns, rows] = o.size ?? [100, 30];
  tmux.start(name, `sh '${script}'`, columns, rows, { TERM: 'xterm-256color' });
  tmux.pipe(name, raw);
  writeFileSync(`${raw}.ready`, '');
}

/**
 * Leaves adk with Ctrl-C twice. A Ctrl-C that comes while the last turn is still being saved (its
 * answer already on screen) cancels the turn instead of arming the exit, so the first is repeated
 * until the exit hint shows. The caller waits for whatever adk prints as it goes.
 */
export async function quitChat(tmux: Tmux, pane: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    tmux.keys(pane, 'C-c');
    const armed = await tmux.waitForScreen(pane, (s) => s.includes('Press Ctrl-C again to exit'), 'the exit hint', 2000).then(() => true, () => false);
    if (armed) break;
  }
  tmux.keys(pane, 'C-c');
}

/** Terminal clears in raw output: erase display (ESC[2J) and erase scrollback (ESC[3J). */
export function clearsIn(raw: string): number {
  return (raw.match(/\x1b\[[23]J/g) ?? []).length;
}

/** The environment that points `adk chat` at the local OpenAI-compatible server (model gpt-test), with its own ADK_HOME under `dir`. */
export const serverChatEnv = (dir: string, serverUrl: string, extra: Record<string, string> = {}): Record<string, string> => ({
  ADK_HOME: join(dir, 'home'),
  OPENAI_BASE_URL: serverUrl,
  OPENAI_API_KEY: 'test-key-123456',
  ADK_MODEL: 'gpt-test',
  ...extra,
});

/** A temporary folder with an empty workspace `work` in it (removed after the file). */
export function chatWorkspace(prefix: string): { dir: string; work: string } {
  const dir = tempDir(prefix);
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  return { dir, work };
}
