import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Shell commands run in process groups of their own, which nothing stops but adk itself: whatever
// way adk's process ends, a command it started (and still waits for) must end with it.
const SHELL = new URL('../../dist/core/tools/builtin/shell.js', import.meta.url).href;
const alive = (pattern: string): string => {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('shell commands do not outlive the process that started them', () => {
  const endings = {
    'an uncaught exception': "setTimeout(() => { throw new Error('boom'); }, 100);",
    'process.exit()': 'setTimeout(() => process.exit(3), 100);',
  };
  let n = 0;
  for (const [how, ending] of Object.entries(endings)) {
    it(`${how}: the running command's whole group is killed`, () => {
      const workspace = mkdtempSync(join(tmpdir(), 'adk-pgroup-'));
      // A child of the shell too: the group goes, not only its leader.
      const marker = `sleep 306.${process.pid % 1000}${++n}`;
      const script = `import { startShell } from ${JSON.stringify(SHELL)};
await startShell(${JSON.stringify(`${marker} & ${marker}; wait`)}, { workspaceRoot: ${JSON.stringify(workspace)}, sandbox: 'off' });
${ending}`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
      expect(r.status, r.stderr).not.toBe(0);
      try {
        expect(alive(marker)).toBe('');
      } finally {
        spawnSync('pkill', ['-f', marker]);
      }
    });
  }
});
