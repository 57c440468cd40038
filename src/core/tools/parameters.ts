import { Ajv, type ValidateFunction } from 'ajv';
import * as z from 'zod';
import type { ZodType } from 'zod';
import type { JsonSchema, Tool } from './tool.js';

const isZod = (p: unknown): p is ZodType => typeof (p as ZodType)?.safeParse === 'function';

// Made with the first JSON-schema tool call: most teams only have zod tools.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction>();
const jsonSchemas = new WeakMap<object, JsonSchema>();

/** The JSON schema sent to the model for a tool's parameters. */
export function parametersJsonSchema(tool: Pick<Tool, 'parameters'>): JsonSchema {
  const p = tool.parameters;
  if (!isZod(p)) return p as JsonSchema;
  let s = jsonSchemas.get(p);
  if (!s) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(p, { io: 'input' }) as JsonSchema;
    s = rest;
    jsonSchemas.set(p, s);
  }
  return s;
}

export type Validation = { ok: true; value: unknown } | { ok: false; error: string };

/** Checks parsed arguments against the tool's schema; the error text is written for the model. */
export function validateArguments(tool: Pick<Tool, 'parameters'>, args: unknown): Validation {
  const p = tool.parameters;
  if (isZod(p)) {
    const r = p.safeParse(args);
    if (r.success) return { ok: true, value: r.data };
    return { ok: false, error: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  }
  let v = compiled.get(p);
  if (!v) {
    v = (ajv ??= new Ajv({ allErrors: true, strict: false, useDefaults: true, logger: false })).compile(p);
    compiled.set(p, v);
  }
  if (v(args)) return { ok: true, value: args };
  return {
    ok: false,
    error: (v.errors ?? []).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? 'invalid'}`).join('; '),
  };
}
