// Checkpoint and session persistence on the default store (a SQLite file, WAL, synchronous=FULL):
// save and load of 10, 100 and 1,000 messages. Each row is the median of many single operations.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyValueCheckpointStore, openKeyValueStore, SessionStore } from '../dist/core/store/index.js';
import { measure } from './harness.mjs';

const SIZES = [10, 100, 1000];

function conversation(n) {
  const messages = [];
  for (let i = 0; i < n; i++) {
    if (i % 4 === 0) messages.push({ role: 'user', content: `Question ${i}: ${'please look at the build output and explain the failure. '.repeat(3)}` });
    else if (i % 4 === 1) {
      messages.push({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `call_${i}`, function: { name: 'read_file', arguments: JSON.stringify({ path: `src/file-${i}.ts` }) } }],
      });
    } else if (i % 4 === 2) {
      messages.push({ role: 'tool', content: `export const x${i} = ${i};\n`.repeat(12), toolCallId: `call_${i - 1}`, toolName: 'read_file' });
    } else {
      messages.push({
        role: 'assistant',
        content: `The failure comes from **file ${i}**: the import is missing. 修正しました 🙂\n\n\`\`\`ts\nimport { x } from './x.js';\n\`\`\``,
        usage: { promptTokens: 1200 + i, completionTokens: 80, totalTokens: 1280 + i },
      });
    }
  }
  return messages;
}

/** Shaped like the Runner's checkpoint: the root input, session values, recorded events, interrupt points. */
function checkpointJson(messages) {
  return JSON.stringify({
    version: 1,
    rootInput: messages.slice(0, 1),
    sessionValues: { Today: '2025-01-01' },
    runPath: ['assistant'],
    events: messages.map((m) => ({ agentName: 'assistant', runPath: ['assistant'], output: { message: { role: m.role, message: m } } })),
    interrupts: { 'int-1': { address: 'agent:assistant;tool:shell:call_9', info: { kind: 'approval', message: 'Run?' }, state: null, isRootCause: true } },
  });
}

const runsFor = (n) => (n >= 1000 ? 25 : n >= 100 ? 41 : 61);

export async function benchCheckpoint({ sqliteDir } = {}) {
  const dir = sqliteDir ?? mkdtempSync(join(tmpdir(), 'adk-bench-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'checkpoint-bench.sqlite');
  for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  const kv = await openKeyValueStore(`sqlite://${file}`);
  const checkpoints = new KeyValueCheckpointStore(kv, { env: {} });
  const sessions = new SessionStore(kv, { env: {} });
  const rows = [];
  try {
    for (const n of SIZES) {
      const messages = conversation(n);
      const cp = checkpointJson(messages);
      const cpBytes = Buffer.byteLength(cp);
      // SQLite skips rewriting an identical row, so consecutive saves alternate between two versions.
      const versions = [cp, cp.replace('"version":1', '"version":1,"seq":1')];
      let turn = 0;
      const opts = { runs: runsFor(n), warmup: 3 };
      const cpSave = await measure(() => checkpoints.set(`bench-${n}`, versions[turn++ % 2]), opts);
      const cpLoad = await measure(async () => {
        if (!(await checkpoints.get(`bench-${n}`))?.startsWith('{"version":1')) throw new Error('checkpoint did not round-trip');
      }, opts);

      let session = await sessions.create({ rootAgent: 'assistant', messages });
      const sessionBytes = Buffer.byteLength((await kv.get(`session:${session.id}`)) ?? '');
      const sSave = await measure(async () => {
        session = await sessions.save(session);
      }, opts);
      const sLoad = await measure(async () => {
        if ((await sessions.get(session.id))?.messages.length !== n) throw new Error('session did not round-trip');
      }, opts);

      rows.push(
        { name: `checkpoint save ${n} msgs`, msPerOp: cpSave.median, bytes: cpBytes },
        { name: `checkpoint load ${n} msgs`, msPerOp: cpLoad.median, bytes: cpBytes },
        { name: `session save ${n} msgs`, msPerOp: sSave.median, bytes: sessionBytes },
        { name: `session load ${n} msgs`, msPerOp: sLoad.median, bytes: sessionBytes },
      );
    }
  } finally {
    await kv.close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
    if (!sqliteDir) rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
