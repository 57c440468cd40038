import path from 'node:path';
import * as z from 'zod';
import { checkModulePath } from '../tools/module-tool.js';
import { didYouMean } from './did-you-mean.js';
import type { PathSeg, ProblemCollector } from './problems.js';
import { checkObject, describe, isRecord } from './shape-check.js';
import { moduleToolSchema } from './schema.js';
import type { MiddlewareRef } from './types.js';

const share = z.number().gt(0).max(1);
const summarizeSchema = z.strictObject({
  threshold: share.optional(),
  keep_turns: z.number().int().min(1).optional(),
  context_window: z.number().int().positive().optional(),
  instructions: z.string().optional(),
});
const reduceSchema = z.strictObject({
  max_chars: z.number().int().min(1000).optional(),
  threshold: share.optional(),
  keep_turns: z.number().int().min(1).optional(),
  context_window: z.number().int().positive().optional(),
});
const BUILTIN = { summarize: summarizeSchema, reduce_tool_results: reduceSchema } as const;
const NAMES = Object.keys(BUILTIN);
const FORMS = 'a middleware is summarize, reduce_tool_results, either with options ({ summarize: { threshold: 0.7 } }), or { module: ./mw.js, export?: <name> }';

/** Checks a chat agent's `middlewares:` list (file:line:col for every problem) and returns the valid entries. */
export function checkMiddlewares(list: readonly unknown[], base: readonly PathSeg[], c: ProblemCollector, baseDir: string): MiddlewareRef[] {
  const refs: MiddlewareRef[] = [];
  list.forEach((entry, i) => {
    const p = [...base, i];
    const ref = checkOne(entry, p, c, baseDir);
    if (ref) refs.push(ref);
  });
  return refs;
}

function checkOne(entry: unknown, p: PathSeg[], c: ProblemCollector, baseDir: string): MiddlewareRef | undefined {
  const pos = c.locate(p);
  if (typeof entry === 'string') {
    if (entry === 'summarize' || entry === 'reduce_tool_results') return { kind: entry, pos };
    c.report(p, `unknown middleware '${entry}'${didYouMean(entry, NAMES)}`, { hint: FORMS });
    return undefined;
  }
  if (!isRecord(entry)) {
    c.report(p, `expected a middleware, got ${describe(entry)}`, { hint: FORMS });
    return undefined;
  }
  if ('module' in entry) {
    const t = checkObject(moduleToolSchema, entry, p, c, (key) => ({ message: `unknown key '${key}' in a module middleware${didYouMean(key, ['module', 'export'])}`, hint: FORMS }));
    if (!t?.module) return undefined;
    const refused = checkModulePath(baseDir, t.module);
    if (refused) {
      c.report([...p, 'module'], refused, { hint: 'middleware modules must live in the folder of agents.yaml or below it' });
      return undefined;
    }
    const ref: MiddlewareRef = { kind: 'module', path: t.module, resolvedPath: path.resolve(baseDir, t.module), pos };
    if (t.export) ref.exportName = t.export;
    return ref;
  }
  const keys = Object.keys(entry);
  const name = keys[0];
  if (keys.length !== 1 || !(name === 'summarize' || name === 'reduce_tool_results')) {
    c.report(p, `unknown middleware form${name ? ` with key '${name}'${didYouMean(name, [...NAMES, 'module'])}` : ''}`, { hint: FORMS, at: 'value' });
    return undefined;
  }
  const schema = BUILTIN[name];
  const known = Object.keys(schema.shape);
  const o = checkObject(schema, entry[name] ?? {}, [...p, name], c, (key) => ({ message: `unknown option '${key}' of ${name}${didYouMean(key, known)}`, hint: `${name} options: ${known.join(', ')}` }));
  if (!o) return undefined;
  const common = { threshold: o.threshold, keepTurns: o.keep_turns, contextWindow: o.context_window };
  if (name === 'summarize') return { kind: 'summarize', pos, options: defined({ ...common, instructions: (o as z.infer<typeof summarizeSchema>).instructions }) };
  return { kind: 'reduce_tool_results', pos, options: defined({ ...common, maxChars: (o as z.infer<typeof reduceSchema>).max_chars }) };
}

function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
