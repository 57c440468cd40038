import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IdlePolicy } from '../../src/cli/chat/idle-collector.js';

const MB = 2 ** 20;
const quiet = (heapMB: number) => ({ cpuMicros: 1_000, wallMs: 500, heapBytes: heapMB * MB });
const busy = (heapMB: number) => ({ cpuMicros: 300_000, wallMs: 500, heapBytes: heapMB * MB });

describe('when the REPL collects', () => {
  it('collects once the process has been quiet for two looks and the heap grew by 32 MB', () => {
    const p = new IdlePolicy();
    p.collected(40 * MB);
    expect(p.next(busy(120))).toBe(false);
    expect(p.next(quiet(120))).toBe(false); // one quiet look is a pause between two bursts
    expect(p.next(quiet(120))).toBe(true);
  });

  it('does not collect while busy, or when the heap did not grow enough', () => {
    const p = new IdlePolicy();
    for (let i = 0; i < 5; i++) expect(p.next(busy(200))).toBe(false);
    // Typing a few keys a second (about 1 ms of CPU each) is not quiet: no pause lands between two keys.
    const typing = new IdlePolicy();
    for (let i = 0; i < 5; i++) expect(typing.next({ cpuMicros: 6_000, wallMs: 500, heapBytes: 200 * MB })).toBe(false);
    const small = new IdlePolicy();
    small.collected(40 * MB);
    for (let i = 0; i < 5; i++) expect(small.next(quiet(70))).toBe(false);
  });

  it('measures growth from the last collection, and again needs two quiet looks after one', () => {
    const p = new IdlePolicy();
    p.next(quiet(120));
    expect(p.next(quiet(120))).toBe(true); // the first quiet second collects what start-up left
    p.collected(60 * MB);
    expect(p.next(quiet(80))).toBe(false);
    expect(p.next(quiet(80))).toBe(false);
    p.next(busy(100));
    p.next(quiet(100));
    expect(p.next(quiet(100))).toBe(true);
  });

  it('a heap that shrank by itself lowers the mark', () => {
    const p = new IdlePolicy();
    p.collected(80 * MB);
    p.next(quiet(50));
    p.next(quiet(50));
    p.next(quiet(85));
    expect(p.next(quiet(85))).toBe(true);
  });
});

const MODULE = pathToFileURL(fileURLToPath(new URL('../../dist/cli/chat/idle-collector.js', import.meta.url))).href;

describe('the idle collector in a real process', () => {
  it('gives back the heap a burst grew once the process is quiet, in a process not started with --expose-gc', () => {
    // A burst that keeps a few hundred MB alive for a moment (as drawing a resumed session does), then nothing.
    const script = `import v8 from 'node:v8';
import vm from 'node:vm';
import { startIdleCollector } from ${JSON.stringify(MODULE)};
const total = () => v8.getHeapStatistics().total_heap_size;
const stop = startIdleCollector((before, after) => {
  stop();
  process.stdout.write(JSON.stringify({ grown, before, after, gcGlobal: typeof globalThis.gc, gcInNewContext: vm.runInNewContext('typeof gc') }));
  process.exit(0);
});
let held = [];
for (let i = 0; i < 120; i++) held.push(Array.from({ length: 2 ** 17 }, (_, k) => ({ k })));
held = null;
const grown = total();
setTimeout(() => { process.stdout.write(JSON.stringify({ grown, timedOut: true, now: total() })); process.exit(0); }, 8000).unref();
setInterval(() => {}, 1000);`;
    const p = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(p.stderr).toBe('');
    const r = JSON.parse(p.stdout);
    expect(r.timedOut).toBeUndefined();
    expect(r.grown).toBeGreaterThan(100 * MB);
    // Once quiet the heap is given back. Under a loaded CI V8 may have collected on its own before the
    // idle collector ran (ci22: 37 MB left when it did): measured against the burst, not that moment.
    expect(r.after).toBeLessThan(r.grown - 64 * MB);
    // The flag that lent the collector is set back: nothing else in the process sees `gc`.
    expect(r.gcGlobal).toBe('undefined');
    expect(r.gcInNewContext).toBe('undefined');
  });
});
