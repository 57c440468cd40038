import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { sleep } from './helpers.js';

/** A tmux server of its own (its own socket), so parallel tests never share panes. */
export class Tmux {
  readonly socket = `adk-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

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
