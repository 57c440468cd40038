import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HEADLESS_RESUME_FLAGS } from '../resume-flags.js';
import { isSecretName } from '../../core/store/secret-names.js';
import { compileCacheDir, runCachedCommonJs } from './cached-commonjs.js';
import { scrubEnvironBlock } from './environ-block.js';

/**
 * Starts the CLI from `dir` (dist/adk). The REPL (Ink, whose modules use top-level await) needs the
 * ESM bundle; every other command runs from the CommonJS bundle, whose compiled code V8 can cache
 * between runs, so `adk run` does not parse the CLI again at every start.
 */
export function boot(dir: string, argv: string[] = process.argv): void {
  // Before anything else runs in this process: keys out of the environment block /proc shows.
  const scrub = scrubEnvironBlock(isSecretName);
  if ('failed' in scrub && argv.includes('--debug')) process.stderr.write(`adk: ${scrub.failed}\n`);
  // React's development build costs more than the rest of the REPL; tests may still opt in.
  process.env.NODE_ENV ??= 'production';
  const command = commandOf(argv);
  if (needsRepl(command, argv)) {
    // The REPL's keys are its own from the first moment: typed ahead of its first frame they are
    // neither echoed above it by the terminal nor held back until Enter (Ink takes the raw mode over).
    process.stdin.setRawMode(true);
    process.once('exit', () => process.stdin.isTTY && process.stdin.setRawMode(false));
    // Node 22.1+ keeps compiled ES modules between runs; a no-op on Node 20.
    void import('node:module').then(async ({ default: mod }) => {
      (mod as { enableCompileCache?: () => void }).enableCompileCache?.();
      await import(pathToFileURL(join(dir, 'main.js')).href);
    });
    return;
  }
  const help = argv.includes('--help') || argv.includes('-h');
  runCachedCommonJs(join(dir, 'cli.cjs'), {
    cacheDir: compileCacheDir(),
    // What `adk run --help` compiles is not what `adk run` needs.
    key: `${command || 'none'}${help ? '-help' : ''}`,
    // import() from here (a file Node loaded itself) works; from cached code it would not (Node 20).
    globals: { __adkImport: (specifier: string) => import(specifier) },
  });
}

/** The command word: the first argument that is not an option (`adk --debug chat` is chat). */
export function commandOf(argv: string[]): string {
  return argv.slice(2).find((a) => !a.startsWith('-')) ?? '';
}

/**
 * `chat`, and `resume` when it may open the REPL: both ends a terminal and none of the flags that
 * make it headless (`--json`, an answer); resumeCommand decides the rest (a prompt also keeps it
 * headless, and then the ES module bundle simply runs it).
 */
export function needsRepl(command: string, argv: string[] = [], tty = !!(process.stdin.isTTY && process.stdout.isTTY)): boolean {
  // Help, or stdin that is not a terminal (`echo hi | adk chat`), needs no raw mode and no Ink (issue 32).
  if (argv.includes('--help') || argv.includes('-h')) return false;
  if (command === 'chat') return !!process.stdin.isTTY;
  if (command !== 'resume' || !tty) return false;
  return !argv.some((a) => HEADLESS_RESUME_FLAGS.has(a.split('=')[0]!));
}
