import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The CLI keeps compiled code under ~/.cache/adk/compile: the test run gets a folder of its own
 * (shared by its files, so most spawns still start from a cache) and leaves nothing behind.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'adk-test-compile-'));
  process.env.ADK_COMPILE_CACHE ??= join(dir, 'cache');
  return () => rmSync(dir, { recursive: true, force: true });
}
