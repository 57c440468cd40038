// The esbuild plugin that swaps Ink's Output for src/ui/ink-output/fast-output.ts: used by the CLI
// bundle (scripts/bundle.mjs) and by the W7 bench, which measures what ships.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Ink's Output (the grid each frame is drawn into) is swapped for src/ui/ink-output/fast-output.ts,
// which writes the same bytes with a fraction of the work (see there). It was checked against one
// output.js: another Ink stops the build until the swap is checked again (test/ui/fast-output.test.ts).
export const fastInkOutput = {
  name: 'fast-ink-output',
  setup(b) {
    b.onResolve({ filter: /^\.\/output\.js$/ }, (args) => {
      if (!/[\\/]ink[\\/]build[\\/]renderer\.js$/.test(args.importer)) return undefined;
      const original = join(dirname(args.importer), 'output.js');
      const hash = createHash('sha256').update(readFileSync(original)).digest('hex').slice(0, 16);
      const pinned = readFileSync(`${root}scripts/ink-output.sha256`, 'utf8').trim();
      if (hash !== pinned) throw new Error(`ink/build/output.js is not the one src/ui/ink-output/fast-output.ts was checked against (${hash}, not ${pinned}): compare them, run test/ui/fast-output.test.ts, then update scripts/ink-output.sha256`);
      return { path: `${root}src/ui/ink-output/fast-output.ts` };
    });
  },
};

