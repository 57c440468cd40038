// W7 measurements on the real ChatApp rendered by Ink into a fake 120×40 terminal:
//  - a 20,000-token markdown stream (paced in bursts, like a fast model): CPU, frames, bytes, clears;
//  - keystroke cost with 500 messages already in the transcript.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createElement } from 'react';
import { render } from 'ink';
import { ChatModelAgent, Runner } from '../../dist/core/index.js';
import { ChatApp } from '../../dist/ui/app/ChatApp.js';
import { REPL_RENDER_OPTIONS } from '../../dist/ui/app/render-options.js';
import { FakeStdin, FakeStdout } from './fake-terminal.mjs';
import { startIdleCollector } from '../../dist/cli/chat/idle-collector.js';

const COLUMNS = 120;
const ROWS = 40;
const TOKENS = 20_000;
const BURST = 50; // tokens per burst
const BURST_MS = 10; // → 5,000 tokens/s, faster than any real model: a worst case for the UI
const KEYSTROKES = 30;
const SESSION_MESSAGES = 500;

/** Markdown-ish tokens: words, a paragraph break every 120 tokens, a code block now and then. */
function tokens(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    if (i % 120 === 119) out.push('.\n\n');
    else if (i % 1200 === 600) out.push('\n```ts\nconst x = 1;\n```\n\n');
    else out.push(` w${i % 97}`);
  }
  return out;
}

class PacedModel {
  modelName = 'bench-paced';
  constructor(pieces) {
    this.pieces = pieces;
  }
  async generate() {
    throw new Error('streaming only');
  }
  async *stream(_messages, options) {
    for (let i = 0; i < this.pieces.length; i += BURST) {
      if (options?.signal?.aborted) return;
      await sleep(BURST_MS);
      for (const content of this.pieces.slice(i, i + BURST)) yield { role: 'assistant', content };
    }
    yield { finishReason: 'stop' };
  }
}

function mount(props) {
  const stdout = new FakeStdout(COLUMNS, ROWS);
  const stdin = new FakeStdin();
  const stderr = new FakeStdout(COLUMNS, ROWS);
  let ended;
  const runEnded = () => new Promise((resolve) => (ended = resolve));
  const app = render(
    createElement(ChatApp, {
      answerInterrupts: async function* () {},
      onExit: () => {},
      onRunEnd: (o) => ended?.(o),
      columns: COLUMNS,
      rows: ROWS,
      ...props,
    }),
    { ...REPL_RENDER_OPTIONS, stdout, stdin, stderr, debug: false, patchConsole: false },
  );
  return { app, stdout, stdin, runEnded };
}

/** `settleMs`: how long the app sits idle after the stream before its memory is read. */
async function streamRun({ settleMs = 100, ...props } = {}) {
  const pieces = tokens(TOKENS);
  const runner = new Runner({ agent: new ChatModelAgent({ name: 'assistant', description: 'bench', model: new PacedModel(pieces) }), enableStreaming: true });
  const t = mount({ runTurn: (text, signal) => runner.query(text, { signal }), ...props });
  await sleep(props.initialItems ? 4000 : 100);
  const frames0 = t.stdout.frames;
  const writes0 = t.stdout.writes;
  const bytes0 = t.stdout.bytes;
  const clears0 = t.stdout.fullClears;
  const done = t.runEnded();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  t.stdin.write('go');
  await sleep(5);
  t.stdin.write('\r');
  const outcome = await done;
  const durationMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // Memory is read once the app has sat idle (a session between turns): what the REPL's idle
  // collector (src/cli/chat/idle-collector.ts, started as startRepl starts it) gave back by then.
  await sleep(settleMs);
  const memory = process.memoryUsage();
  t.app.unmount();
  if (outcome?.error) throw outcome.error;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const frames = t.stdout.frames - frames0;
  const writes = t.stdout.writes - writes0;
  return { durationMs, cpuMs, cpuShare: cpuMs / durationMs, frames, writes, fps: frames / (durationMs / 1000), bytes: t.stdout.bytes - bytes0, fullClears: t.stdout.fullClears - clears0, rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external, arrayBuffers: memory.arrayBuffers };
}

const LONG_TURNS = 100;

/** One answer of about 4.6 KB of markdown: headings, paragraphs, a list, a table and a code block. */
export function longAnswer(n) {
  const para = (k) => `Paragraph ${k} of answer ${n} says what the module does, why it exists and how it is called from the rest of the code, with \`inline code\` and **bold** words.`;
  const parts = [`## Answer ${n}`, para(1), para(2), ...Array.from({ length: 6 }, (_, i) => `- point ${i + 1}: ${para(i + 3).slice(0, 90)}`), para(9), '| file | role | ok |', '|---|---|---|', ...Array.from({ length: 6 }, (_, i) => `| src/m${i}.ts | module ${i} of the build | ✅ |`), '```ts', ...Array.from({ length: 12 }, (_, i) => `export const value${i} = compute(${i}, 'answer ${n}');`), '```', ...Array.from({ length: 16 }, (_, i) => para(i + 10))];
  return parts.join('\n\n');
}

/** A 100-turn session already in the transcript (4.6 KB of markdown per answer), as `adk resume` shows it. */
function longSession() {
  const items = [];
  for (let i = 0; i < LONG_TURNS; i++) {
    items.push({ kind: 'user', text: `question ${i}: explain part ${i}` });
    items.push({ kind: 'assistant', agent: 'assistant', text: longAnswer(i), messageId: `m${i}`, showHeader: true });
  }
  return items;
}

/** The same paced stream read by a bare loop: the share of CPU that is not the UI's. */
async function streamWithoutUi() {
  const runner = new Runner({ agent: new ChatModelAgent({ name: 'assistant', description: 'bench', model: new PacedModel(tokens(TOKENS)) }), enableStreaming: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for await (const e of runner.query('go')) {
    const s = e.output?.message?.stream;
    if (s) for await (const _ of s);
  }
  const durationMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / durationMs;
}

async function keystrokes() {
  const initialItems = [];
  for (let i = 0; i < SESSION_MESSAGES; i++) {
    initialItems.push(
      i % 2 === 0
        ? { kind: 'user', text: `question ${i}: what does file ${i} do?` }
        : { kind: 'assistant', agent: 'assistant', text: `File **${i}** exports \`x${i}\`.\n\nIt is used by the build.`, messageId: `m${i}`, showHeader: true },
    );
  }
  const t = mount({ runTurn: async function* () {}, initialItems });
  await sleep(300);
  const latency = [];
  const cpuMs = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    await sleep(40); // past the frame throttle, so each key gets its own frame
    const frame = t.stdout.nextFrame();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    t.stdin.write(String.fromCharCode(97 + (i % 26)));
    await Promise.race([frame, sleep(1000)]);
    latency.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
  }
  t.app.unmount();
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  return { latency: med(latency), min: Math.min(...latency), max: Math.max(...latency), cpu: med(cpuMs) };
}

/**
 * Issue 15: the tall-input case at 100×20. A 3.3 KB single line pasted into the box, then keys typed
 * one frame apart: the live area must stay under the screen height, so Ink never clears the terminal.
 */
async function tallInput() {
  const stdout = new FakeStdout(100, 20);
  const stdin = new FakeStdin();
  const app = render(createElement(ChatApp, { runTurn: async function* () {}, answerInterrupts: async function* () {}, onExit: () => {}, columns: 100, rows: 20 }), {
    ...REPL_RENDER_OPTIONS,
    stdout,
    stdin,
    stderr: new FakeStdout(100, 20),
    debug: false,
    patchConsole: false,
  });
  await sleep(200);
  stdin.write(Array.from({ length: 330 }, (_, i) => `w${String(i).padStart(3, '0')}xxxxx`).join(' ').slice(0, 3300));
  await sleep(100);
  const latency = [];
  for (let i = 0; i < 20; i++) {
    await sleep(40);
    const frame = stdout.nextFrame();
    const t0 = performance.now();
    stdin.write(String.fromCharCode(97 + (i % 26)));
    await Promise.race([frame, sleep(1000)]);
    latency.push(performance.now() - t0);
  }
  app.unmount();
  const sorted = [...latency].sort((x, y) => x - y);
  return { latency: sorted[sorted.length >> 1], min: sorted[0], max: sorted[sorted.length - 1], fullClears: stdout.fullClears, frames: stdout.frames };
}

/**
 * `part`: 'session' runs only the 100-turn session (W7s, W7m), so its memory is that of a process that
 * did nothing else; 'main' the rest; both by default.
 */
export async function runTuiBench({ log = () => {}, runs = 3, part } = {}) {
  if (part === 'session') return sessionRows(log);
  const rows = await mainRows(log, runs);
  return part === 'main' ? rows : [...rows, ...(await sessionRows(log))];
}

async function mainRows(log, runs) {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await streamRun());
  results.sort((a, b) => a.cpuShare - b.cpuShare);
  const mid = results[results.length >> 1];
  log('W7 keystrokes …');
  const keys = await keystrokes();
  const noUiShare = await streamWithoutUi();
  log('W7 tall input …');
  const tall = await tallInput();
  return [
    {
      id: 'W7',
      workload: `W7 TUI: ${TOKENS / 1000}k-token stream at ${COLUMNS}×${ROWS}`,
      impl: 'adk',
      value: mid.cpuMs,
      min: results[0].cpuMs,
      max: results[results.length - 1].cpuMs,
      unit: 'CPU ms',
      runs,
      ...mid,
      note: `${mid.frames} frames (${mid.fps.toFixed(1)} fps, ${mid.writes} writes), ${(mid.bytes / 1024).toFixed(0)} KiB written, ${mid.fullClears} full clears, stream ${mid.durationMs.toFixed(0)} ms, CPU ${(mid.cpuShare * 100).toFixed(0)}% (the same stream without the UI: ${(noUiShare * 100).toFixed(0)}%)`,
      noUiShare,
    },
    {
      id: 'W7k',
      workload: `W7 TUI: keystroke with ${SESSION_MESSAGES} messages`,
      impl: 'adk',
      value: keys.latency,
      min: keys.min,
      max: keys.max,
      unit: 'ms to frame',
      runs: KEYSTROKES,
      note: `CPU ${keys.cpu.toFixed(2)} ms per keystroke`,
    },
    {
      id: 'W7t',
      workload: 'W7 TUI: keystroke under a 3.3 KB line at 100×20',
      impl: 'adk',
      value: tall.latency,
      min: tall.min,
      max: tall.max,
      unit: 'ms to frame',
      runs: 20,
      fullClears: tall.fullClears,
      note: `${tall.fullClears} full clears in ${tall.frames} frames (issue 15: the input box shows a window; Ink never redraws the screen)`,
    },
  ];
}

async function sessionRows(log) {
  log('W7 stream in a 100-turn session …');
  const session = longSession();
  const answerKb = session.filter((x) => x.kind === 'assistant').reduce((n, x) => n + x.text.length, 0) / LONG_TURNS / 1024;
  global.gc?.(); // the bench's own set-up (the session built in memory) is not the app's
  const stopCollector = startIdleCollector();
  const long = await streamRun({ initialItems: session, settleMs: Number(process.env.W7_SETTLE_MS ?? 5000) });
  stopCollector();
  const peakMB = process.resourceUsage().maxRSS / 1024;
  return [
    {
      id: 'W7s',
      workload: `W7 TUI: ${TOKENS / 1000}k-token stream in a ${LONG_TURNS}-turn session at ${COLUMNS}×${ROWS}`,
      impl: 'adk',
      value: long.cpuShare * 100,
      unit: '% of a core',
      runs: 1,
      cpuShare: long.cpuShare,
      fullClears: long.fullClears,
      note: `${(long.cpuShare * 100).toFixed(0)}% CPU (target ≤ 20%), ${long.frames} frames (${long.fps.toFixed(1)} fps), ${long.fullClears} full clears; ${LONG_TURNS} turns of ${answerKb.toFixed(1)} KB markdown`,
    },
    {
      id: 'W7m',
      workload: `W7 TUI: memory of a ${LONG_TURNS}-turn session after the stream, idle 5 s`,
      impl: 'adk',
      value: long.rss / 2 ** 20,
      unit: 'MB RSS',
      runs: 1,
      note: `RSS ${(long.rss / 2 ** 20).toFixed(0)} MB (target ≤ 200 MB; ${peakMB.toFixed(0)} MB at the peak, while drawing), heap ${(long.heapUsed / 2 ** 20).toFixed(0)} of ${(long.heapTotal / 2 ** 20).toFixed(0)} MB, external ${(long.external / 2 ** 20).toFixed(0)} MB (array buffers ${(long.arrayBuffers / 2 ** 20).toFixed(0)} MB); in-process app with a fake terminal (no store, no model client), in a process of its own`,
    },
  ];
}
