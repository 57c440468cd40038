import { chmodSync, existsSync, mkdirSync, realpathSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../src/core/tools/sandbox/bwrap.js';
import { tempDir } from '../cli/helpers.js';

// Security review, MEDIUM: the probe took the first bwrap on PATH, also from a relative PATH entry or
// one inside the workspace, so a repository's `node_modules/.bin/bwrap` (exits 0, runs its arguments
// unsandboxed) passed the probe, and its success holds for the process. LOW: a probe that threw was
// an unhandled rejection.
const real = await sandboxStatus();

/** A workspace whose `node_modules/.bin/bwrap` says yes to everything and leaves a mark when run. */
function plantedWorkspace() {
  const work = realpathSync(tempDir('adk-probe-ws-'));
  const bin = join(work, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const mark = join(work, 'fake-bwrap-ran');
  writeFileSync(join(bin, 'bwrap'), `#!/bin/sh\n: > '${mark}'\nexit 0\n`);
  chmodSync(join(bin, 'bwrap'), 0o755);
  return { work, bin, mark };
}

describe.runIf(process.platform === 'linux')('the sandbox probe and PATH', () => {
  it('never takes a bwrap from a PATH entry inside the workspace, and says it left one out', async () => {
    const { work, bin, mark } = plantedWorkspace();
    const status = await sandboxStatus({ PATH: bin }, work);
    expect(status.bwrap).toBeUndefined();
    expect(status.reason).toContain('bwrap is not installed');
    expect(status.reason).toContain(join(bin, 'bwrap'));
    expect(existsSync(mark)).toBe(false);
  });

  it.runIf(real.bwrap)('goes on to the system bwrap past one inside the workspace', async () => {
    const { work, bin, mark } = plantedWorkspace();
    const status = await sandboxStatus({ PATH: `${bin}:/usr/bin:/bin` }, work);
    expect(status.bwrap).toBe(real.bwrap);
    expect(existsSync(mark)).toBe(false);
  });

  it.runIf(real.bwrap)('never takes a bwrap from a relative PATH entry', async () => {
    const { work, bin, mark } = plantedWorkspace();
    const status = await sandboxStatus({ PATH: `${relative(process.cwd(), bin)}:/usr/bin:/bin` }, work);
    expect(status.bwrap).toBe(real.bwrap);
    expect(existsSync(mark)).toBe(false);
  });

  it('a probe that throws is a reason, not an unhandled rejection', async () => {
    // A NUL in PATH makes spawn throw at once (inside the probe).
    const status = await sandboxStatus({ ADK_BWRAP: '/bin/true', PATH: '/usr/bin:/bin\0x' });
    expect(status.bwrap).toBeUndefined();
    expect(status.reason).toMatch(/sandbox probe failed/);
  });
});
