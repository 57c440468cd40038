import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, serverEnv, useServer } from '../cli/helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, useTmux } from './tmux.js';
import { ADK_BIN } from '../support/cli.js';
import { writeFileSync } from 'node:fs';

// Issue 32, item 3: `echo hi | adk chat` and `adk chat --help </dev/null` crashed in boot with
// `process.stdin.setRawMode is not a function`. Like gemini-cli, piped stdin is a one-shot prompt
// answered headlessly; `--help` prints help; nothing ever prints a stack trace.
const server = useServer();
const tmux = useTmux();

describe('adk chat without a terminal on stdin', () => {
  it('`adk chat --help </dev/null` prints the help and exits 0', async () => {
    const r = await runCli(['chat', '--help'], { input: '' });
    expect(r.stderr).not.toMatch(/TypeError|setRawMode|\n\s+at /);
    expect(r.stdout).toContain('Usage: adk chat');
    expect(r.code).toBe(0);
  });

  it('`echo hi | adk chat` answers "hi" headlessly and exits 0', async () => {
    server().enqueue({ content: 'hello from the model' });
    const r = await runCli(['chat'], { input: 'hi\n', env: serverEnv(server()) });
    expect(r.stderr).not.toMatch(/TypeError|setRawMode|\n\s+at /);
    expect(r.stdout).toContain('hello from the model');
    expect(r.code).toBe(0);
    const last = server().chatRequests.at(-1)!.body.messages.at(-1);
    expect(String(last.content)).toContain('hi');
  });

  it('`adk chat </dev/null` says to pipe a prompt or use adk run (exit 2, no stack trace)', async () => {
    const r = await runCli(['chat'], { input: '', env: serverEnv(server()) });
    expect(r.stderr).not.toMatch(/TypeError|setRawMode|\n\s+at /);
    expect(r.stderr).toMatch(/adk run/);
    expect(r.code).toBe(2);
  });

  it('in tmux, `echo hi | adk chat` (stdout a terminal) prints the answer, no stack trace, no clear', async () => {
    server().enqueue({ content: 'piped answer' });
    const { dir, work } = chatWorkspace('adk-notty-');
    const raw = join(dir, 'raw.out');
    const env = serverChatEnv(dir, server().url);
    const script = join(dir, 'piped.sh');
    writeFileSync(script, `unset ADK_STORE\n${Object.entries(env).map(([k, v]) => `export ${k}='${v}'`).join('\n')}\ncd '${work}'\nwhile [ ! -e '${raw}.ready' ]; do sleep 0.05; done\necho hi | node '${ADK_BIN}' chat; echo "exit=$?"\nexec sh\n`);
    tmux.rawFiles.set('piped', raw);
    tmux.start('piped', `sh '${script}'`, 100, 30, { TERM: 'xterm-256color' });
    tmux.pipe('piped', raw);
    writeFileSync(`${raw}.ready`, '');
    const screen = await tmux.waitForScreen('piped', (s) => /exit=\d+/.test(s), 'adk to exit');
    expect(screen).toContain('piped answer');
    expect(screen).toContain('exit=0');
    expect(screen).not.toMatch(/TypeError|setRawMode/);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
  }, 30_000);
});
