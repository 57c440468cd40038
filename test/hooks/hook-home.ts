import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll } from 'vitest';
import type { Tool } from '../../src/core/index.js';

/**
 * An ADK_HOME of the test file's own, set in the process for its tests: `adk trust`
 * (trustSettingsFile) uses the process's ADK_HOME. Put back afterwards.
 */
export function useHookHome(prefix: string): string {
  const home = mkdtempSync(join(tmpdir(), prefix));
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.ADK_HOME;
    process.env.ADK_HOME = home;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.ADK_HOME;
    else process.env.ADK_HOME = saved;
  });
  return home;
}

/** A read-only stand-in for read_file: the tool call the hooks see. */
export const readFileTool: Tool<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ path }) => `read: ${path}`,
};
