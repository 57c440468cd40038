import chalk, { Chalk } from 'chalk';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import FastOutput, { asciiTokens } from '../../src/ui/ink-output/fast-output.js';
import { tokenize } from '@alcalzone/ansi-tokenize';

// The bundle replaces Ink's Output with src/ui/ink-output/fast-output.ts: both must write the same bytes.
const inkDir = join(dirname(createRequire(import.meta.url).resolve('ink')));
const inkOutputFile = join(inkDir, 'output.js');
const { default: InkOutput } = (await import(pathToFileURL(inkOutputFile).href)) as { default: typeof FastOutput };

const c = new Chalk({ level: 3 });
const samples = [
  'plain words',
  c.bold('## Answer 12'),
  `Paragraph with ${c.cyan('`inline code`')} and ${c.bold('bold')} words.`,
  c.bgRed.white(' ERROR ') + ' then plain',
  '✅ done │ ❌ failed │ 漢字テキスト │ 👍🏽',
  c.dim('╭──────────╮'),
  c.green('+ added line') + c.red(' - removed'),
  `${c.underline.blue('link')} \u001B]8;;https://example.com\u0007example\u001B]8;;\u0007 after`,
  c.italic.yellow('thinking…') + '   ',
  '   leading and trailing spaces   ',
  c.rgb(200, 100, 50)('24-bit colour') + c.bgHex('#223344')(' bg '),
  c.bold.dim('bold and dim') + c.bold(' bold only'),
  'a\tb',
  '',
];

/** A deterministic pseudo-random sequence (no flakes, every run the same cases). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Op = ['write', number, number, string, ((line: string, i: number) => string)[]] | ['clip', object] | ['unclip'];

function randomOps(seed: number, width: number, height: number): Op[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const ops: Op[] = [];
  let depth = 0;
  const n = 5 + Math.floor(r() * 25);
  for (let i = 0; i < n; i++) {
    const k = r();
    if (k < 0.12) {
      const x1 = Math.floor(r() * width);
      const y1 = Math.floor(r() * height);
      const clip = r() < 0.5 ? { x1, x2: x1 + Math.floor(r() * width), y1, y2: y1 + Math.floor(r() * height) } : r() < 0.5 ? { x1, x2: x1 + 10 } : { y1, y2: y1 + 3 };
      ops.push(['clip', clip]);
      depth++;
    } else if (k < 0.18 && depth > 0) {
      ops.push(['unclip']);
      depth--;
    } else {
      const lines = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(samples));
      const transformers = r() < 0.2 ? [(line: string, index: number) => (index === 0 ? c.magenta('▎ ') : '  ') + line] : [];
      // Mostly inside the grid; sometimes past its right edge or below it, as overflowing text does.
      ops.push(['write', Math.floor(r() * (width + 8)) - (r() < 0.05 ? 2 : 0), Math.floor(r() * (height + 3)), lines.join('\n'), transformers]);
    }
  }
  return ops;
}

function run(Output: typeof FastOutput, width: number, height: number, ops: Op[]) {
  const out = new Output({ width, height });
  for (const op of ops) {
    if (op[0] === 'write') out.write(op[1], op[2], op[3], { transformers: op[4] });
    else if (op[0] === 'clip') out.clip(op[1]);
    else out.unclip();
  }
  return out.get();
}

describe("the bundle's Output (Ink's, made fast)", () => {
  it('writes exactly what Ink 6.8 writes, over 3,000 random frames of styled, wide and linked text', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed * 7919);
      const width = 1 + Math.floor(r() * 120);
      const height = 1 + Math.floor(r() * 12);
      const ops = randomOps(seed, width, height);
      expect(run(FastOutput, width, height, ops), `seed ${seed} (${width}×${height})`).toEqual(run(InkOutput, width, height, ops));
    }
  });

  it("writes what Ink writes for grids as tall as the scrollback's (past the live-frame cache), again and again", () => {
    // The same lines written many times over: shared cells and styles must not leak from one frame into the next.
    for (let seed = 1; seed <= 60; seed++) {
      const r = rng(seed * 104729);
      const width = 20 + Math.floor(r() * 100);
      const height = 257 + Math.floor(r() * 300);
      const ops = Array.from({ length: 8 }, (_, k) => randomOps(seed * 31 + k, width, height)).flat();
      expect(run(FastOutput, width, height, ops), `seed ${seed} (${width}×${height})`).toEqual(run(InkOutput, width, height, ops));
    }
  });

  it('writes what Ink writes when its shared tables start again: past 4,096 styles, and past 65,536 codes between styles', () => {
    const r = rng(42);
    const colour = () => Math.floor(r() * 256);
    const writeLines = (lines: string[]): Op[] => lines.map((line, y) => ['write', 0, y, line, []]);
    // 12,000 distinct 24-bit colour pairs: past the cap on shared styles, several times.
    const art = Array.from({ length: 300 }, () => Array.from({ length: 40 }, () => c.rgb(colour(), colour(), colour()).bgRgb(colour(), colour(), colour())('▀')).join(''));
    for (let pass = 0; pass < 2; pass++) expect(run(FastOutput, 60, 300, writeLines(art))).toEqual(run(InkOutput, 60, 300, writeLines(art)));
    // 3,000 colours (under the style cap) in 80,000 cells: their neighbouring pairs pass the cap on cached codes.
    const palette = Array.from({ length: 3000 }, () => c.rgb(colour(), colour(), colour()));
    const pairs = Array.from({ length: 400 }, () => Array.from({ length: 200 }, () => palette[Math.floor(r() * palette.length)]!('x')).join(''));
    expect(run(FastOutput, 200, 400, writeLines(pairs))).toEqual(run(InkOutput, 200, 400, writeLines(pairs)));
  });

  it('tokenises ASCII lines as ansi-tokenize does, and leaves every other line to it', () => {
    const lines = [
      'plain',
      '\u001B[1;31mbold red\u001B[22;39m after',
      '\u001B[mreset\u001B[0m',
      '\u001B[38;2;1;2;3mrgb\u001B[48;5;200mbg\u001B[49m\u001B[39m',
      'tab\there\u007Fdel',
      c.bold.dim('a') + c.italic.underline('b') + c.strikethrough.inverse('c'),
    ];
    for (const line of lines) expect(asciiTokens(line), JSON.stringify(line)).toEqual(tokenize(line));
    for (const line of ['\u001B[2Jclear', 'caf\u00E9', 'emoji ✅', '\u001B]8;;https://x\u0007x\u001B]8;;\u0007', 'lone \u001B']) expect(asciiTokens(line), JSON.stringify(line)).toBeUndefined();
  });

  it('is swapped for the Ink it was written against: a new Ink must be checked again', () => {
    // scripts/bundle.mjs refuses to swap any other output.js; this test names the reason.
    const hash = createHash('sha256').update(readFileSync(inkOutputFile)).digest('hex').slice(0, 16);
    const pinned = readFileSync(new URL('../../scripts/ink-output.sha256', import.meta.url), 'utf8').trim();
    expect(hash).toBe(pinned);
    expect(chalk).toBeDefined();
  });
});
