import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

// Imports flow one way: cli → ui | serve → core. core imports no UI, CLI or HTTP code.
const SRC = resolve(import.meta.dirname, '../src');
const ROOMS = ['core', 'ui', 'serve', 'cli', 'web'] as const;
const MAY_IMPORT: Record<string, readonly string[]> = { core: ['core'], ui: ['ui', 'core'], serve: ['serve', 'core'], web: ['web'], cli: ['cli', 'ui', 'serve', 'core'] };

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('architecture', () => {
  it('imports flow one way between src/cli, src/ui, src/serve and src/core', () => {
    const wrong: string[] = [];
    for (const file of files(SRC)) {
      const room = relative(SRC, file).split('/')[0]!;
      if (!ROOMS.includes(room as (typeof ROOMS)[number])) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
        const target = relative(SRC, resolve(dirname(file), m[1]!)).split('/')[0]!;
        if (ROOMS.includes(target as (typeof ROOMS)[number]) && !MAY_IMPORT[room]!.includes(target)) wrong.push(`${relative(SRC, file)} imports ${m[1]}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
