import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { procKeyScanSource } from '../support/proc-key-scan.js';
import { tempDir } from '../cli/helpers.js';

// The scanner the sandbox tests run as hostile code finds "nothing" there; here it must find the key
// where it is (its own environment and heap), or those tests could not fail.
describe('the /proc key scanner', () => {
  it('finds a key in its own environment and memory', () => {
    const key = 'sk-scanner-control-KEY-1q2w3e4r';
    const file = join(tempDir('adk-scan-'), 'scan.mjs');
    writeFileSync(file, `${procKeyScanSource(key)}\nconst held = process.env.HELD_KEY + '';\nprocess.stdout.write(JSON.stringify({ ...scanForKey(), held: held.length }));\n`);
    const r = JSON.parse(execFileSync(process.execPath, [file], { env: { PATH: process.env.PATH, HELD_KEY: key }, encoding: 'utf8' })) as { memory: number; environ: number; pids: number };
    expect(r.environ).toBeGreaterThanOrEqual(1);
    expect(r.memory).toBeGreaterThanOrEqual(1);
    expect(r.pids).toBeGreaterThanOrEqual(1);
  });
});
