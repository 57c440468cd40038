import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { describe, expect, it } from 'vitest';
import { ADK_BIN } from '../support/cli.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { runInPty } from '../support/pty.js';
import { cli, expectCleanStderr, jsonLines, modelEnv, showSession, spawnCli, workspace } from './helpers.js';

/* Signals and a closed stdout, sent to the real CLI in the middle of a run. */

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const slow = { content: 'one two three four five six seven eight nine ten eleven twelve', chunkSize: 4, chunkDelayMs: 60 };

async function cancelWith(signal: NodeJS.Signals) {
  const { cwd, home } = workspace();
  const env = modelEnv(server, home);
  server.enqueue(slow);
  const p = spawnCli(['run', '--json', 'count slowly'], { env, cwd });
  await p.waitForLine((l) => l.includes('"delta"'));
  p.child.kill(signal);
  const exit = await p.exited;
  return { exit, p, env, cwd, lines: jsonLines(p.stdout()) };
}

describe('process faults', () => {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`${sig} once: the run stops, the HTTP request is aborted, the session is saved and resumes cleanly`, async () => {
      const { exit, p, env, cwd, lines } = await cancelWith(sig);
      expect(exit.code).toBe(130);
      const id = lines[0].sessionId;
      expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'cancelled', sessionId: id });
      expect(p.stderr()).toBe(`adk: cancelled; session ${id} is saved (adk resume ${id}).\n`);
      await server.waitForAborted(1, 5000);
      const saved = await showSession(id, env, cwd);
      expect(saved).toMatchObject({ status: 'cancelled', checkpointId: id });
      expect(saved.messages.map((m: any) => m.content)).toEqual(['count slowly']);

      // Resuming makes the cancelled model call again; the partial text of the first one is gone.
      server.enqueue({ content: 'the whole count' });
      const r = await cli(['resume', id, '--json'], { env, cwd });
      expect(r.code, r.stderr).toBe(0);
      const done = await showSession(id, env, cwd);
      expect(done.status).toBe('completed');
      expect(done.messages.map((m: any) => [m.role, m.content])).toEqual([
        ['user', 'count slowly'],
        ['assistant', 'the whole count'],
      ]);
    });
  }

  it('SIGINT twice: the second exits at once even while the save is stuck, and the store stays readable', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    server.enqueue(slow);
    const p = spawnCli(['run', '--json', 'count slowly'], { env, cwd });
    await p.waitForLine((l) => l.includes('"delta"'));
    // Another process holds the store's write lock: the save after the first Ctrl-C waits on it.
    const holder = new KeyvSqlite({ uri: `sqlite://${join(home, 'adk.sqlite')}` });
    await holder.query('BEGIN EXCLUSIVE');
    try {
      p.child.kill('SIGINT');
      await new Promise((r) => setTimeout(r, 400));
      expect(p.child.exitCode, 'the first Ctrl-C waits for the save').toBeNull();
      const second = Date.now();
      p.child.kill('SIGINT');
      const exit = await p.exited;
      expect(Date.now() - second).toBeLessThan(1000);
      // It dies by SIGINT itself, which a shell reports as exit status 130.
      expect(exit.signal).toBe('SIGINT');
      expectCleanStderr(p.stderr());
    } finally {
      await holder.query('ROLLBACK');
      await holder.disconnect();
    }
    const id = jsonLines(p.stdout())[0].sessionId;
    const list = await cli(['sessions', 'list', '--json'], { env, cwd });
    expect(JSON.parse(list.stdout).map((e: any) => [e.id, e.corrupt])).toEqual([[id, false]]);
    // What was confirmed before the run (the user's message) is still there.
    expect((await showSession(id, env, cwd)).messages.map((m: any) => m.content)).toEqual(['count slowly']);
  });

  it('a slow reader on stdout still gets all of a large output before adk exits', async () => {
    const { cwd, home } = workspace();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...modelEnv(server, home) })) if (v !== undefined) env[k] = v;
    const answer = 'z'.repeat(2 * 1024 * 1024);
    server.enqueue({ content: answer, chunkSize: 256 * 1024 });
    const script = `"${process.execPath}" "${ADK_BIN}" run go | (sleep 1; wc -c)`;
    // Async: the model server lives in this process and must keep answering.
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { env, cwd, encoding: 'utf8' });
    expect(Number(stdout.trim())).toBe(answer.length + 1);
  });

  it('Ctrl-C in a terminal stops a headless adk run or adk resume within a second (resume set the terminal raw, so Ctrl-C was a keystroke)', async () => {
    const { cwd, home } = workspace();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...modelEnv(server, home) })) if (v !== undefined) env[k] = v;
    server.enqueue({ content: 'first answer' });
    const first = await cli(['run', '--json', 'go'], { env, cwd });
    const id = jsonLines(first.stdout)[0].sessionId as string;
    const stopped: Array<[string, number | null, number | null]> = [];
    for (const args of [['run', 'again'], ['resume', id, 'again'], ['resume', id, '--json', 'again']]) {
      server.enqueue({ content: 'tick '.repeat(200), chunkSize: 5, chunkDelayMs: 50 });
      const r = await runInPty([process.execPath, ADK_BIN, ...args], { ...env, PWD: cwd }, { ctrlC: 'tick', timeoutS: 8 });
      stopped.push([args.join(' '), r.exit, r.ctrlCToExitMs === null ? null : Math.min(r.ctrlCToExitMs, 1000)]);
    }
    expect(stopped.map(([what, exit]) => [what, exit])).toEqual([['run again', 130], [`resume ${id} again`, 130], [`resume ${id} --json again`, 130]]);
    for (const [, , ms] of stopped) expect(ms).toBeLessThan(1000);
  });

  it('the terminal closes (SIGHUP) while a headless adk resume runs an approved command: the command stops, the session is saved as cancelled', async () => {
    const { cwd, home } = workspace();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...modelEnv(server, home, { ADK_SHELL_SANDBOX: 'off' }) })) if (v !== undefined) env[k] = v;
    const command = `touch started; sleep 303.${process.pid % 1000}`;
    server.enqueue({ toolCalls: [{ name: 'shell', arguments: { command } }] });
    const first = await cli(['run', '--json', 'build it'], { env, cwd });
    expect(first.code).toBe(3);
    const id = jsonLines(first.stdout)[0].sessionId as string;
    server.enqueue({ content: 'built' });
    const alive = () => {
      try {
        return execFileSync('pgrep', ['-f', command.split('; ')[1]!], { encoding: 'utf8' }).trim();
      } catch {
        return '';
      }
    };
    const r = await runInPty([process.execPath, ADK_BIN, 'resume', id, '--approve'], { ...env, PWD: cwd }, { hangupFile: join(cwd, 'started'), timeoutS: 20 });
    // adk left by itself (a hung-up terminal cannot show its exit), saved the turn, and took its command with it.
    // Ended by the SIGHUP once saved (-1: python's code for it), not aborted by Node restoring a terminal that is gone (-6).
    expect(r.exit).toBe(-1);
    for (const end = Date.now() + 3000; alive() !== '' && Date.now() < end; ) await new Promise((res) => setTimeout(res, 100));
    expect(alive()).toBe('');
    expect((await showSession(id, env, cwd)).status).toBe('cancelled');
  });

  it('stdout closed while the run is silent, then Ctrl-C: the last lines meet a closed pipe and adk still exits quietly', async () => {
    const { cwd, home } = workspace();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...modelEnv(server, home) })) if (v !== undefined) env[k] = v;
    server.enqueue({ content: 'late', delayMs: 5000 });
    const child = spawn(process.execPath, [ADK_BIN, 'run', '--json', 'go'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // The reader goes away after the first line (as `| head -1` does); nothing more is written until the cancel.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    // Cancelled by Ctrl-C (130) and saved; no stack trace from the lines written to the closed pipe.
    expect(stderr).toMatch(/^adk: cancelled; session \w+ is saved \(adk resume \w+\)\.\n$/);
    expect(code).toBe(130);
  });

  for (const mode of [['--json'], []]) {
    it(`EPIPE on stdout (adk run ${mode.join(' ')} | head -1): a quiet exit`, async () => {
      const { cwd, home } = workspace();
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...process.env, ...modelEnv(server, home) })) if (v !== undefined) env[k] = v;
      server.enqueue({ content: 'line\n'.repeat(200), chunkSize: 5, chunkDelayMs: 5 });
      const script = `"${process.execPath}" "${ADK_BIN}" run ${mode.join(' ')} go | head -1; echo "adk exit \${PIPESTATUS[0]}" >&2`;
      const r = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
        const child = spawn('bash', ['-c', script], { env, cwd });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ stdout, stderr, code }));
      });
      expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
      expect(r.stderr).toBe('adk exit 0\n');
      expect(server.chatRequests).toHaveLength(1);
      // The run was stopped, not abandoned: its session is saved and can go on.
      const list = await promisify(execFile)(process.execPath, [ADK_BIN, 'sessions', 'list', '--json'], { env, cwd, encoding: 'utf8' });
      expect(JSON.parse(list.stdout).map((x: { status: string }) => x.status)).toEqual(['cancelled']);
    });
  }
});
