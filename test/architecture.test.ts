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

// Issue 29: inside src/core, layers bottom-up (src/core/README.md). A file imports only its own
// layer or lower ones (type imports count: a contract that names a higher type is not low), and no
// files import each other in a circle.
const CORE = resolve(SRC, 'core');
const CORE_LAYERS: Array<[name: string, members: string[]]> = [
  ['base', ['errors.ts', 'abort.ts', 'async-queue.ts', 'optional-peer.ts', 'dynamic-import.ts', 'named-exports.ts', 'fs-checks.ts', 'interrupt.ts', 'schema/']],
  [
    'contracts',
    [
      'agents/events.ts', 'agents/types.ts', 'agents/handlers.ts', 'agents/run-context.ts', 'agents/run-journal.ts', 'agents/run-budget.ts', 'agents/session.ts', 'agents/history.ts', 'agents/call-ids.ts',
      'agents/middleware.ts', 'tools/tool-info.ts', 'tools/tool.ts', 'models/chat-model.ts', 'models/pricing.ts', 'callbacks.ts', 'checkpoint.ts', 'run-status.ts',
    ],
  ],
  ['implementations', ['models/', 'tools/', 'store/', 'context/', 'tracing/']],
  ['middlewares', ['middlewares/']],
  ['agents', ['agents/']],
  ['prebuilt', ['prebuilt/']],
  ['runner', ['runner.ts', 'run-result.ts', 'conversation/', 'config/']],
  ['entries', ['entries/', 'index.ts']],
];

/** The layer of a file (relative to src/core): the longest member that names it. */
function coreLayer(rel: string): number {
  let best = -1;
  let bestLength = -1;
  CORE_LAYERS.forEach(([, members], i) => {
    for (const m of members) {
      const hit = m.endsWith('/') ? rel.startsWith(m) : rel === m;
      if (hit && m.length > bestLength) [best, bestLength] = [i, m.length];
    }
  });
  return best;
}

/** Each file's imports of other files under `root` (value and type imports, re-exports, dynamic imports), by path relative to it. */
function importsUnder(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const known = new Set(files(root).map((f) => relative(root, f)));
  for (const file of files(root)) {
    const targets: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)) {
      const t = relative(root, resolve(dirname(file), m[1]!)).replace(/\.js$/, '');
      targets.push(known.has(`${t}.tsx`) ? `${t}.tsx` : `${t}.ts`);
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}
const coreImports = () => importsUnder(CORE);

/** The circles in an import graph (Tarjan's strongly connected components of more than one file). */
function circlesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) circles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('src/core layers', () => {
  it('every file belongs to a layer and imports only its own layer or lower ones', () => {
    const unplaced: string[] = [];
    const upward: string[] = [];
    for (const [file, targets] of coreImports()) {
      const from = coreLayer(file);
      if (from < 0) unplaced.push(file);
      for (const t of targets) {
        const to = coreLayer(t);
        if (to > from) upward.push(`${file} (${CORE_LAYERS[from]![0]}) imports ${t} (${CORE_LAYERS[to]![0]})`);
      }
    }
    expect(unplaced).toEqual([]);
    expect(upward).toEqual([]);
  });

  it('no files import each other in a circle', () => {
    expect(circlesOf(coreImports())).toEqual([]);
  });
});

// Issue 50: no circles anywhere, not only in core.
describe('src', () => {
  it('no files import each other in a circle, in any folder', () => {
    expect(circlesOf(importsUnder(SRC))).toEqual([]);
  });
});
