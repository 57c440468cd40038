// W7r: `adk resume` of a 100-turn session (about 4.5 KB of markdown per answer) in tmux at 120×40:
// time from the command to the input box on screen, whole process; and (W7r-all) to the last turn
// written above it (the older turns go to the scrollback a batch per frame after the input box); and
// (W7rm) the adk process's resident memory 3 s after that (and its peak). Needs tmux and the built CLI
// (dist/adk); the model endpoint is never called.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../dist/core/', import.meta.url);
const { openKeyValueStore, SessionStore } = await import(new URL('store/index.js', dist).href);
const { longAnswer } = await import('./measure.mjs');

export async function benchResume({ turns = 100, runs = 3 } = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), 'adk-w7r-'));
  const file = join(dir, 'adk.sqlite');
  const kv = await openKeyValueStore(`sqlite://${file}`);
  const sessions = new SessionStore(kv, { env: {} });
  const messages = [];
  for (let i = 0; i < turns; i++) messages.push({ role: 'user', content: `question ${i}: explain part ${i}` }, { role: 'assistant', content: longAnswer(i) });
  // One copy per run: a killed REPL's lease on its session outlives it for a while.
  for (let r = 0; r < runs; r++) {
    const rec = await sessions.create({ id: `longsess${r}`, rootAgent: 'assistant', title: 'a long session' });
    await sessions.save({ ...rec, messages, status: 'completed' });
  }
  await kv.close();
  const bin = fileURLToPath(new URL('../../bin/adk.js', import.meta.url));
  // A tmux server per run: killing a server's last session ends it, and the next run's new-session could reach it while it exits.
  let sock = '';
  const tmux = (...a) => execFileSync('tmux', ['-L', sock, '-f', '/dev/null', ...a], { encoding: 'utf8' });
  const times = [];
  const allTimes = [];
  const rss = [];
  const peak = [];
  try {
    for (let r = 0; r < runs; r++) {
      const script = join(dir, 'run.sh');
      writeFileSync(script, `export ADK_HOME='${dir}' ADK_STORE='sqlite://${file}' NODE_ENV=production\nexport OPENAI_API_KEY=sk-bench-unused OPENAI_BASE_URL=http://127.0.0.1:9/v1\ncd '${dir}'\n'${process.execPath}' '${bin}' resume longsess${r}; sleep 30\n`);
      sock = `adk-w7r-${process.pid}-${r}`;
      const t0 = performance.now();
      let box = 0;
      tmux('new-session', '-d', '-s', `r${r}`, '-x', '120', '-y', '40', `sh '${script}'`);
      for (;;) {
        const screen = tmux('capture-pane', '-p', '-t', `r${r}`);
        if (!box && screen.includes('› Message, or / for commands')) box = performance.now() - t0;
        if (box && screen.includes(`Paragraph 25 of answer ${turns - 1} `)) break;
        if (performance.now() - t0 > 30_000) throw new Error(`no input box after 30 s: ${screen.trimEnd().split('\n').slice(-8).join('\n')}`);
        await sleep(10);
      }
      times.push(box);
      allTimes.push(performance.now() - t0);
      // The session's memory once it is all written and has sat a moment: the adk process's resident set.
      await sleep(3000);
      const pane = tmux('display-message', '-p', '-t', `r${r}`, '#{pane_pid}').trim();
      const adk = readFileSync(`/proc/${pane}/task/${pane}/children`, 'utf8').trim().split(/\s+/)[0];
      if (adk) {
        const status = readFileSync(`/proc/${adk}/status`, 'utf8');
        rss.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
        peak.push(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024);
      }
      tmux('kill-server');
      sock = '';
    }
  } finally {
    try {
      if (sock) tmux('kill-server');
    } catch {
      // never started
    }
    rmSync(dir, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  allTimes.sort((a, b) => a - b);
  rss.sort((a, b) => a - b);
  peak.sort((a, b) => a - b);
  return { times, allTimes, rss, peak };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchResume());
