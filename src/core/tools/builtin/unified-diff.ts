import { createTwoFilesPatch } from 'diff';

/** A unified diff of a file's text before and after a change (3 lines of context), without the `===` banner. */
export function unifiedDiff(path: string, before: string, after: string): string | undefined {
  if (before === after) return undefined;
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
  return patch.replace(/^=+\n/m, '').trimEnd();
}
