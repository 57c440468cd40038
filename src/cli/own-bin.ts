import { fileURLToPath } from 'node:url';

/**
 * adk's own entry script, from this package (src/cli/ and dist/adk/ both sit two folders below it):
 * what adk starts again as a child (`adk eval`'s trials), whatever wrapper started this process.
 */
export function ownBin(): string {
  return fileURLToPath(new URL('../../bin/adk.js', import.meta.url));
}
