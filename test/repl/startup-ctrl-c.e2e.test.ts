import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN } from '../support/cli.js';
import { sleep, writeSlowMcpTeam } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// The terminal is raw from adk chat's first moment (type-ahead reaches the box, not the screen), so
// Ctrl-C is a key there, not SIGINT. While the team loads (an MCP server can take up to 30 s to
// start) that key must still end adk at once. (The server, still starting, ends by itself: its input is closed.)
const server = useServer();
const tmux = useTmux();

describe('Ctrl-C while adk chat starts (tmux)', () => {
  it('a team that takes seconds to load: Ctrl-C ends adk within a second, the terminal as it was', async () => {
    const { dir, work } = chatWorkspace('adk-start-cc-');
    writeSlowMcpTeam(join(work, 'agents.yaml'), 30, join(dir, 'loading'));
    const env = serverChatEnv(dir, server().url);
    execFileSync(process.execPath, [ADK_BIN, 'trust', '--yes', work], { env: { ...process.env, ...env }, stdio: 'ignore' });
    startChat(tmux, 'cc', {
      dir,
      cwd: work,
      env,
      after: `echo "adk exited $?"; echo "modes: $(stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')."`,
    });
    // adk is loading the team now: its MCP server has begun its 30 s start.
    for (let i = 0; i < 300 && !existsSync(join(dir, 'loading')); i++) await sleep(50);
    expect(existsSync(join(dir, 'loading'))).toBe(true);
    const pressed = Date.now();
    tmux.keys('cc', 'C-c');
    const screen = await tmux.waitForScreen('cc', (s) => s.includes('modes:'), 'adk to exit', 10_000);
    expect(Date.now() - pressed).toBeLessThan(5000); // the team would take 30 s more
    expect(screen).toContain('adk exited 130');
    expect(screen).toContain('modes: icanon echo .');
    expect(screen).not.toContain('adk · lead');
  }, 60_000);
});
