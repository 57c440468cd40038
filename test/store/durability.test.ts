import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/schema/message.js';
import { openKeyValueStore, SessionStore } from '../../src/core/store/index.js';
import { compileStore } from './fixtures/compile-store.js';

/*
 * The writers are plain `node` processes running the real store code, transpiled from src/
 * by compileStore (no dependency on a built dist/). The parent reads back with the TypeScript
 * source through vitest: both sides must agree on the on-disk format.
 */

const WRITER = resolve('test/store/fixtures/session-writer.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'adk-durable-'));
let storeUrl: string;
beforeAll(() => {
  storeUrl = compileStore(join(tmp, 'build'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const hashOf = (messages: Message[]) => createHash('sha256').update(JSON.stringify(messages.map((m) => [m.role, m.content]))).digest('hex');

/** Per session: the hash of the last confirmed write, and hashes attempted after it (a kill may land after the commit, before "saved"). */
interface Expectation {
  confirmed?: string;
  attempted: string[];
}

function track(lines: string[], expected: Map<string, Expectation>): number {
  let confirmed = 0;
  for (const line of lines) {
    const [word, id, hash] = line.split(' ');
    if (word !== 'saving' && word !== 'saved') continue;
    const e = expected.get(id) ?? { attempted: [] };
    expected.set(id, e);
    if (word === 'saving') e.attempted.push(hash);
    else {
      e.confirmed = hash;
      e.attempted = [];
      confirmed++;
    }
  }
  return confirmed;
}

interface Run {
  lines: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs a writer; with killAfterMs it is SIGKILLed that long after it reports ready. */
function runWriter(file: string, count: number, killAfterMs?: number): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [WRITER, storeUrl, file, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      const before = stdout;
      stdout += d.toString();
      if (killAfterMs !== undefined && !before.includes('ready\n') && stdout.includes('ready\n')) {
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => {
      // Only complete lines count: a torn last line was never fully emitted.
      const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
      done({ lines: complete.split('\n').filter(Boolean), code, signal, stderr });
    });
  });
}

async function integrityCheck(file: string): Promise<unknown> {
  const db = new KeyvSqlite({ uri: `sqlite://${file}` });
  const rows = await db.query('PRAGMA integrity_check');
  await db.disconnect();
  return rows;
}

async function verify(file: string, expected: Map<string, Expectation>): Promise<number> {
  const kv = await openKeyValueStore(`sqlite://${file}`);
  const sessions = new SessionStore(kv, { env: {} });
  let checked = 0;
  try {
    for (const [id, e] of expected) {
      const s = await sessions.get(id); // throws on a torn or corrupt record
      if (!e.confirmed) {
        // Created but never confirmed: absent, or exactly one of the attempted versions.
        if (s) expect(e.attempted).toContain(hashOf(s.messages));
        continue;
      }
      expect(s, `confirmed session ${id} is missing`).toBeDefined();
      expect([e.confirmed, ...e.attempted], `session ${id} has content nobody wrote`).toContain(hashOf(s!.messages));
      checked++;
    }
    expect((await sessions.list()).filter((x) => x.corrupt)).toEqual([]);
  } finally {
    await kv.close();
  }
  return checked;
}

describe('SQLite durability', () => {
  it('keeps every confirmed session across 20 kill -9s of the writer', async () => {
    const file = join(tmp, 'killed.sqlite');
    const expected = new Map<string, Expectation>();
    let confirmed = 0;
    let killed = 0;
    for (let i = 0; i < 20; i++) {
      const run = await runWriter(file, 0, 30 + randomInt(300));
      expect(run.stderr).toBe('');
      if (run.signal === 'SIGKILL') killed++;
      confirmed += track(run.lines, expected);
    }
    expect(killed).toBe(20);
    expect(confirmed).toBeGreaterThan(20);
    expect(await integrityCheck(file)).toEqual([{ integrity_check: 'ok' }]);
    const checked = await verify(file, expected);
    expect(checked).toBeGreaterThan(0);
  }, 60_000);

  it('two processes writing to one file at once lose nothing', async () => {
    const file = join(tmp, 'concurrent.sqlite');
    const [a, b] = await Promise.all([runWriter(file, 120), runWriter(file, 120)]);
    for (const run of [a, b]) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }
    const expected = new Map<string, Expectation>();
    expect(track(a.lines, expected)).toBe(120);
    expect(track(b.lines, expected)).toBe(120);
    for (const e of expected.values()) expect(e.attempted).toEqual([]);
    expect(await verify(file, expected)).toBe(expected.size);
    const kv = await openKeyValueStore(`sqlite://${file}`);
    expect((await kv.list('session:')).length).toBe(expected.size);
    await kv.close();
  }, 60_000);
});
