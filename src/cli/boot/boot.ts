import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compileCacheDir, runCachedCommonJs } from './cached-commonjs.js';

/**
 * Starts the CLI from `dir` (dist/adk). The REPL (Ink, whose modules use top-level await) needs the
 * ESM bundle; every other command runs from the CommonJS bundle, whose compiled code V8 can cache
 * between runs, so `adk run` does not parse the CLI again at every start.
 */
export function boot(dir: string, argv: string[] = process.argv): void {
  // React's development build costs more than the rest of the REPL; tests may still opt in.
  process.env.NODE_ENV ??= 'production';
  const command = argv[2] ?? '';
  if (needsRepl(command)) {
    // Node 22.1+ keeps compiled ES modules between runs; a no-op on Node 20.
    void import('node:module').then(async ({ default: mod }) => {
      (mod as { enableCompileCache?: () => void }).enableCompileCache?.();
      await import(pathToFileURL(join(dir, 'main.js')).href);
    });
    return;
  }
  runCachedCommonJs(join(dir, 'cli.cjs'), {
    cacheDir: compileCacheDir(),
    key: command.startsWith('-') ? 'options' : command,
    // import() from here (a file Node loaded itself) works; from cached code it would not (Node 20).
    globals: { __adkImport: (specifier: string) => import(specifier) },
  });
}

/** `chat`, and `resume` (which opens the REPL when both ends are a terminal). */
export const needsRepl = (command: string): boolean => command === 'chat' || command === 'resume';
