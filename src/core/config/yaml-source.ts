import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, Scalar, visit } from 'yaml';
import type { Alias, Document, Node as YamlNode, Pair } from 'yaml';
import { interpolate } from './interpolate.js';
import { joinPath, type PositionMap, type ProblemCollector } from './problems.js';
import type { SourcePos } from './types.js';

/**
 * Minimum node budget for alias expansion. The budget grows with the file (one node per source
 * character), so expansion stays linear in the input and a billion-laughs file is refused at once.
 */
export const DEFAULT_MAX_ALIAS_EXPANSION = 10_000;

export interface SourceDocument {
  /** Plain data: null-prototype objects, arrays, strings, numbers, booleans, null. */
  value: unknown;
  positions: PositionMap;
  /** False when the YAML itself is broken; the value is then not worth validating. */
  syntaxOk: boolean;
}

export interface ReadOptions {
  env: Record<string, string | undefined>;
  /** Fixed budget; by default max(DEFAULT_MAX_ALIAS_EXPANSION, text length). */
  maxAliasExpansion?: number | undefined;
  /** Called once the position map exists, so problems can be reported with positions. */
  problems: (positions: PositionMap) => ProblemCollector;
}

/**
 * Parses YAML into plain data while keeping every node's line:col. Reports syntax errors,
 * duplicate keys, unknown or recursive aliases and alias bombs; interpolates `${VAR}`.
 */
export function readYaml(text: string, opts: ReadOptions): { doc: SourceDocument; collector: ProblemCollector } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, merge: false, strict: true });
  const positions: PositionMap = new Map();
  const collector = opts.problems(positions);
  const posAt = (offset: number): SourcePos => {
    const p = lineCounter.linePos(offset);
    return { line: Math.max(1, p.line), col: Math.max(1, p.col) };
  };

  if (doc.errors.length > 0) {
    for (const e of doc.errors) collector.report([], `YAML syntax error: ${e.message}`, { pos: posAt(e.pos[0]) });
    return { doc: { value: undefined, positions, syntaxOk: false }, collector };
  }

  const budget = opts.maxAliasExpansion ?? Math.max(DEFAULT_MAX_ALIAS_EXPANSION, text.length);
  const walker = new Walker(text, doc, budget, opts.env, collector, positions, posAt);
  const value = doc.contents ? walker.walk(doc.contents as YamlNode, '', undefined) : null;
  if (!positions.has('')) positions.set('', { value: { line: 1, col: 1 } });
  return { doc: { value, positions, syntaxOk: true }, collector };
}

class Walker {
  private aliasTargets?: Map<Alias, YamlNode | undefined>;
  private readonly sizes = new Map<YamlNode, number>();
  private readonly expanding = new Set<YamlNode>();
  private expanded = 0;
  private aliasBudgetExceeded = false;

  constructor(
    private readonly text: string,
    private readonly doc: Document,
    private readonly budget: number,
    private readonly env: Record<string, string | undefined>,
    private readonly collector: ProblemCollector,
    private positions: PositionMap,
    private readonly posAt: (offset: number) => SourcePos,
  ) {}

  /** Anchors resolve to the last definition before the alias, in document order (one pass, on first use). */
  private targetOf(alias: Alias): YamlNode | undefined {
    if (!this.aliasTargets) {
      const targets = new Map<Alias, YamlNode | undefined>();
      const anchors = new Map<string, YamlNode>();
      visit(this.doc, {
        Node: (_key, node) => {
          if (isAlias(node)) targets.set(node, anchors.get(node.source));
          else if (node.anchor) anchors.set(node.anchor, node as YamlNode);
        },
      });
      this.aliasTargets = targets;
    }
    return this.aliasTargets.get(alias);
  }

  walk(node: YamlNode, path: string, keyPos: SourcePos | undefined): unknown {
    const pos = this.nodePos(node);
    if (!this.positions.has(path)) this.positions.set(path, keyPos ? { key: keyPos, value: pos } : { value: pos });
    if (isAlias(node)) return this.walkAlias(node, path, keyPos);
    if (isScalar(node)) return this.scalar(node, path, pos);
    if (isSeq(node)) return node.items.map((item, i) => (item ? this.walk(item as YamlNode, joinPath(path, i), undefined) : null));
    if (isMap(node)) return this.map(node.items as Pair[], path);
    return null;
  }

  private walkAlias(node: Alias, path: string, keyPos: SourcePos | undefined): unknown {
    const fail = (message: string, hint?: string): null => {
      this.collector.reportAt(path, message, { pos: this.nodePos(node), hint });
      this.collector.suppress(path);
      return null;
    };
    if (this.aliasBudgetExceeded) {
      this.collector.suppress(path);
      return null;
    }
    const target = this.targetOf(node);
    if (!target) return fail(`unknown alias '*${node.source}'`, `define the anchor '&${node.source}' before using it`);
    const size = this.sizeOf(target);
    if (this.expanding.has(target) || size === Infinity) return fail(`alias '*${node.source}' refers to itself`);
    // Aliases nested in an expansion are already part of the outer alias's size.
    if (this.expanding.size === 0) this.expanded += size;
    if (this.expanded > this.budget) {
      this.aliasBudgetExceeded = true;
      return fail(
        `aliases expand to more than ${this.budget} nodes (alias bomb)`,
        'aliases that multiply content (billion laughs) are refused; repeat the values instead',
      );
    }
    this.expanding.add(target);
    try {
      // Positions inside point at the anchored source text, which is where a fix goes.
      return this.walk(target, path, keyPos);
    } finally {
      this.expanding.delete(target);
    }
  }

  private scalar(node: Scalar, path: string, pos: SourcePos): unknown {
    const v = node.value;
    if (typeof v !== 'string') return typeof v === 'bigint' ? Number(v) : v ?? null;
    const r = interpolate(v, this.env);
    for (const e of r.errors) this.collector.reportAt(path, e.message, { pos: this.referencePos(node, e.reference, pos), hint: e.hint });
    // The value is already reported; checks that would only repeat it are skipped.
    if (r.errors.length > 0) this.collector.suppress(path);
    if (r.changed && (!node.type || node.type === Scalar.PLAIN)) return plainScalar(r.value);
    return r.value;
  }

  private map(pairs: Pair[], path: string): Record<string, unknown> {
    const out: Record<string, unknown> = Object.create(null);
    const merges: Pair[] = [];
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === 'object') {
        const at = keyNode ? this.nodePos(keyNode) : this.positions.get(path)!.value;
        this.collector.reportAt(path, 'mapping keys must be plain strings', { pos: at });
        continue;
      }
      const key = String(keyNode.value);
      if (key === '<<' && (!keyNode.type || keyNode.type === Scalar.PLAIN)) {
        merges.push(pair);
        continue;
      }
      const keyPos = this.nodePos(keyNode);
      const childPath = joinPath(path, key);
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        const first = this.positions.get(childPath)?.key;
        this.collector.reportAt(childPath, `duplicate key '${key}'${first ? ` (first defined at line ${first.line})` : ''}`, {
          pos: keyPos,
          hint: path === 'agents' ? 'agent names must be unique' : 'remove or rename one of them',
        });
        continue;
      }
      out[key] = pair.value
        ? this.walk(pair.value as YamlNode, childPath, keyPos)
        : this.nullValue(childPath, keyPos);
    }
    for (const pair of merges) this.merge(out, pair, path);
    return out;
  }

  private nullValue(path: string, keyPos: SourcePos): null {
    this.positions.set(path, { key: keyPos, value: keyPos });
    return null;
  }

  /** `<<: *base` or `<<: [*a, *b]`: keys not set explicitly come from the merged maps. */
  private merge(out: Record<string, unknown>, pair: Pair, path: string): void {
    const sources = isSeq(pair.value) ? (pair.value.items as YamlNode[]) : [pair.value as YamlNode];
    for (const src of sources) {
      // Walk the source on its own position map, then re-home the positions of the keys taken.
      const saved = this.positions;
      const temp: PositionMap = new Map();
      this.positions = temp;
      const base = `${path}<<`;
      const value = src ? this.walk(src, base, undefined) : null;
      this.positions = saved;
      if (this.aliasBudgetExceeded) return;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        this.collector.reportAt(path, "a merge key '<<' needs a mapping (or a list of mappings)", { pos: this.nodePos(src ?? (pair.key as YamlNode)) });
        continue;
      }
      for (const [k, v] of Object.entries(value)) {
        if (Object.prototype.hasOwnProperty.call(out, k)) continue;
        out[k] = v;
        const from = joinPath(base, k);
        const to = joinPath(path, k);
        for (const [p, pos] of temp) {
          if (p === from || p.startsWith(from + '.') || p.startsWith(from + '[')) {
            if (!saved.has(to + p.slice(from.length))) saved.set(to + p.slice(from.length), pos);
          }
        }
      }
    }
  }

  /** Column of `${NAME…` inside the scalar's source text, when it can be found there. */
  private referencePos(node: Scalar, reference: string, fallback: SourcePos): SourcePos {
    const range = node.range;
    if (!range) return fallback;
    const idx = this.text.slice(range[0], range[1]).indexOf(reference);
    return idx >= 0 ? this.posAt(range[0] + idx) : fallback;
  }

  private nodePos(node: YamlNode): SourcePos {
    return node.range ? this.posAt(node.range[0]) : { line: 1, col: 1 };
  }

  /** Nodes an alias to `node` produces when expanded; memoized so the count stays linear. */
  private sizeOf(node: YamlNode | undefined | null, stack = new Set<YamlNode>()): number {
    if (!node) return 1;
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    if (stack.has(node)) return Infinity;
    stack.add(node);
    let n = 1;
    if (isAlias(node)) n = this.sizeOf(this.targetOf(node), stack);
    else if (isSeq(node)) for (const i of node.items) n += this.sizeOf(i as YamlNode, stack);
    else if (isMap(node)) for (const p of node.items as Pair[]) n += 1 + this.sizeOf(p.value as YamlNode, stack);
    stack.delete(node);
    this.sizes.set(node, n);
    return n;
  }
}

/** An unquoted `${VAR}` becomes a number or boolean when its text says so, like any plain scalar. */
function plainScalar(s: string): unknown {
  if (/^[-+]?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/.test(s)) return Number(s);
  if (s === 'true') return true;
  if (s === 'false') return false;
  return s;
}
