import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../src/core/models/providers.js';
// @ts-expect-error: a plain ES module script without types.
import { END, START, providerTable } from '../../scripts/provider-table.mjs';

describe('README provider table', () => {
  it('has a row per profile, naming its API, key variable, images and reasoning', () => {
    const table: string = providerTable(PROFILES);
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(rows.map((r) => r.split('|')[1]!.trim())).toEqual(Object.keys(PROFILES).map((n) => `\`${n}\``));
    expect(rows.find((r) => r.startsWith('| `openai`'))).toContain('`api: responses`');
    expect(rows.find((r) => r.startsWith('| `bedrock`'))).toContain('AWS credential chain');
    expect(rows.find((r) => r.startsWith('| `deepseek`'))).toMatch(/\| no \|/);
  });

  it('the README holds exactly the generated table (regenerate: node scripts/provider-table.mjs after a build)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    expect(start, `README.md has no ${START} … ${END} block`).toBeGreaterThanOrEqual(0);
    expect(readme.slice(start, end + END.length)).toBe(providerTable(PROFILES));
  });
});
