// OpenAI's strict structured outputs (`json_schema.strict: true`) take a subset of JSON Schema
// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): the root is an
// object; every object sets `additionalProperties: false` and lists every property in `required`
// (an optional one takes `null` instead); `allOf`, `not`, `if`/`then`/`else`, `dependentRequired` and
// `dependentSchemas` are not supported; strings take `pattern` and `format` (some formats), numbers
// `multipleOf` and the bounds, arrays `minItems`/`maxItems`; at most 10 levels of objects, 5000
// properties and 1000 enum values. This makes a schema strict the way the openai SDK's
// `toStrictJsonSchema` (helpers/zod) does, plus what it leaves to the caller: optional properties
// become nullable, keywords strict mode refuses are moved into the description, `oneOf` becomes
// `anyOf`, and what cannot be expressed is reported with its path.
import type { JsonSchema } from '../tools/tool.js';

/** Why a schema cannot be sent in strict mode: one line per problem, each with its path (`#/properties/x`). */
export class StrictSchemaError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** String formats strict mode supports. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/** Narrowing keywords strict mode refuses: dropped from the schema, told to the model in the description (the answer is still checked against the full schema). */
const NOTED = ['minLength', 'maxLength', 'default', 'propertyNames', 'unevaluatedProperties', 'minProperties', 'maxProperties', 'uniqueItems', 'contains', 'minContains', 'maxContains', 'unevaluatedItems'];
/** Keywords that change what a value may be and have no strict equivalent. */
const UNSUPPORTED: Record<string, string> = {
  not: '`not` is not supported',
  if: '`if`/`then`/`else` are not supported',
  then: '`if`/`then`/`else` are not supported',
  else: '`if`/`then`/`else` are not supported',
  dependentRequired: '`dependentRequired` is not supported',
  dependentSchemas: '`dependentSchemas` is not supported',
  dependencies: '`dependencies` is not supported',
  patternProperties: 'keys matched by pattern (`patternProperties`) are not supported: strict mode needs every key named',
  prefixItems: 'tuples (`prefixItems`) are not supported: use an object, or an array of one item type',
};
/** Dropped without a word: annotations strict mode does not read. */
const DROPPED = ['$schema', '$id', '$comment', 'discriminator'];

const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `schema` made acceptable to OpenAI's strict mode (a new object; the input is not changed). Throws
 * StrictSchemaError listing everything that cannot be made strict.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  const problems: string[] = [];
  const counts = { properties: 0, enumValues: 0 };
  const root = structuredClone(schema) as Record<string, unknown>;
  if (root.type !== 'object' || root.anyOf || root.oneOf) {
    problems.push(`#: the root must be an object (strict mode takes no other root): wrap the answer in one, e.g. z.object({ answer: … })`);
  }
  const out = strictNode(root, '#', 0, problems, counts);
  if (counts.properties > MAX_PROPERTIES) problems.push(`#: ${counts.properties} properties in all; strict mode takes at most ${MAX_PROPERTIES}`);
  if (counts.enumValues > MAX_ENUM_VALUES) problems.push(`#: ${counts.enumValues} enum values in all; strict mode takes at most ${MAX_ENUM_VALUES}`);
  if (problems.length) throw new StrictSchemaError([...new Set(problems)]);
  return out as JsonSchema;
}

function strictNode(node: unknown, path: string, depth: number, problems: string[], counts: { properties: number; enumValues: number }): Record<string, unknown> {
  if (!isObject(node)) {
    problems.push(`${path}: ${typeof node === 'boolean' ? `the schema \`${node}\` (accept anything / nothing)` : 'not a schema object'} is not supported`);
    return {};
  }
  const s: Record<string, unknown> = { ...node };
  for (const k of DROPPED) delete s[k];
  for (const [k, why] of Object.entries(UNSUPPORTED)) if (k in s) problems.push(`${path}: ${why}`);

  // Definitions (draft 2020-12 `$defs`, draft-07 `definitions`).
  for (const defs of ['$defs', 'definitions'] as const) {
    if (isObject(s[defs])) s[defs] = Object.fromEntries(Object.entries(s[defs]).map(([k, v]) => [k, strictNode(v, `${path}/${defs}/${k}`, depth, problems, counts)]));
  }

  // Intersections: one member is inlined (as the SDK does); more cannot be strict.
  if (Array.isArray(s.allOf)) {
    if (s.allOf.length === 1) {
      const [only] = s.allOf as unknown[];
      delete s.allOf;
      Object.assign(s, isObject(only) ? { ...only, ...s } : {});
    } else problems.push(`${path}: \`allOf\` (an intersection) is not supported: merge its members into one object`);
  }
  // Unions: `oneOf` is taken as `anyOf` (the answer is still checked against the full schema).
  if (Array.isArray(s.oneOf)) {
    if (s.anyOf) problems.push(`${path}: both \`oneOf\` and \`anyOf\``);
    else s.anyOf = s.oneOf;
    delete s.oneOf;
  }
  if (Array.isArray(s.anyOf)) s.anyOf = s.anyOf.map((v, i) => strictNode(v, `${path}/anyOf/${i}`, depth, problems, counts));

  // Keywords strict mode refuses but that only narrow: into the description.
  const notes: string[] = [];
  for (const k of NOTED) {
    if (!(k in s)) continue;
    if (k !== 'propertyNames' && k !== 'unevaluatedProperties') notes.push(`${k}: ${JSON.stringify(s[k])}`);
    delete s[k];
  }
  if (typeof s.format === 'string' && !FORMATS.has(s.format)) {
    notes.push(`format: ${s.format}`);
    delete s.format;
  }
  if (notes.length) s.description = typeof s.description === 'string' && s.description ? `${s.description} (${notes.join(', ')})` : notes.join(', ');
  if (Array.isArray(s.enum)) counts.enumValues += s.enum.length;

  if (!('type' in s) && !('anyOf' in s) && !('$ref' in s) && !('enum' in s) && !('const' in s)) {
    problems.push(`${path}: a schema without \`type\` (any value, e.g. z.unknown()) is not supported: strict mode needs a type`);
  }

  const isObjectType = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')) || isObject(s.properties);
  if (isObjectType) {
    if (depth + 1 > MAX_DEPTH) problems.push(`${path}: objects nested more than ${MAX_DEPTH} deep; strict mode takes at most ${MAX_DEPTH} levels`);
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== false) {
      problems.push(`${path}: keys not named in \`properties\` (additionalProperties: ${JSON.stringify(extra)}, e.g. z.record or a loose object) are not supported: strict mode needs every key named`);
    }
    s.additionalProperties = false;
    const properties = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    counts.properties += Object.keys(properties).length;
    s.properties = Object.fromEntries(
      Object.entries(properties).map(([k, v]) => {
        const strict = strictNode(v, `${path}/properties/${k}`, depth + 1, problems, counts);
        // Every property is required; an optional one takes null for "absent" (read back as absent).
        return [k, required.has(k) ? strict : orNull(strict)];
      }),
    );
    s.required = Object.keys(properties);
  }
  if (s.items !== undefined) {
    if (isObject(s.items)) s.items = strictNode(s.items, `${path}/items`, depth, problems, counts);
    else if (!('prefixItems' in s)) problems.push(`${path}/items: not a schema object`);
  }

  // `$ref` beside other keywords: strict mode takes siblings of `anyOf`, not of `$ref`.
  if (typeof s.$ref === 'string' && Object.keys(s).length > 1) {
    const { $ref, ...rest } = s;
    return { anyOf: [{ $ref }], ...rest };
  }
  return s;
}

/** Whether a (strict) schema accepts null. */
function acceptsNull(s: Record<string, unknown>): boolean {
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
  if (Array.isArray(s.enum) && s.enum.includes(null)) return true;
  if ('const' in s && s.const === null) return true;
  return Array.isArray(s.anyOf) && s.anyOf.some((v) => isObject(v) && acceptsNull(v));
}

/** The schema, also accepting null. */
function orNull(s: Record<string, unknown>): Record<string, unknown> {
  if (acceptsNull(s)) return s;
  const plain = !('enum' in s) && !('const' in s) && !('$ref' in s) && !('anyOf' in s);
  if (plain && typeof s.type === 'string') return { ...s, type: [s.type, 'null'] };
  if (plain && Array.isArray(s.type)) return { ...s, type: [...s.type, 'null'] };
  if (Array.isArray(s.anyOf) && !('type' in s) && !('enum' in s) && !('const' in s) && !('$ref' in s)) return { ...s, anyOf: [...s.anyOf, { type: 'null' }] };
  const { description, title, ...rest } = s;
  return { anyOf: [rest, { type: 'null' }], ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}) };
}

/**
 * An answer given under a strict schema, with `null` removed where the original schema has an
 * optional property that does not take null (strict mode's way of leaving it out). Values the
 * schema does not describe are left as they are.
 */
export function dropNullsForAbsent(value: unknown, schema: JsonSchema): unknown {
  const root = schema as Record<string, unknown>;
  const resolve = (s: unknown, seen: Set<string> = new Set()): Record<string, unknown> | undefined => {
    if (!isObject(s)) return undefined;
    if (typeof s.$ref !== 'string' || !s.$ref.startsWith('#')) return s;
    if (seen.has(s.$ref)) return undefined;
    seen.add(s.$ref);
    let at: unknown = root;
    for (const part of s.$ref.slice(1).split('/').filter(Boolean)) at = isObject(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    return resolve(at, seen);
  };
  /** The object schemas `s` may be, following refs and unions. */
  const branches = (s: unknown, depth = 0): Array<Record<string, unknown>> => {
    const r = resolve(s);
    if (!r || depth > 20) return [];
    const subs = [...((r.anyOf as unknown[]) ?? []), ...((r.oneOf as unknown[]) ?? []), ...((r.allOf as unknown[]) ?? [])];
    return [r, ...subs.flatMap((x) => branches(x, depth + 1))];
  };
  const nullable = (s: unknown): boolean => branches(s).some((b) => acceptsNull(b) || b.nullable === true);
  const walk = (v: unknown, s: unknown): unknown => {
    const options = branches(s);
    if (Array.isArray(v)) {
      const items = options.map((o) => o.items).filter((i) => isObject(i));
      return items.length ? v.map((x) => items.reduce<unknown>((acc, i) => walk(acc, i), x)) : v;
    }
    if (!isObject(v)) return v;
    const out: Record<string, unknown> = { ...v };
    for (const [k, x] of Object.entries(v)) {
      const declared = options.filter((o) => isObject(o.properties) && k in o.properties);
      if (!declared.length) continue;
      const optional = declared.every((o) => !(Array.isArray(o.required) && o.required.includes(k)));
      const propSchemas = declared.map((o) => (o.properties as Record<string, unknown>)[k]);
      if (x === null && optional && !propSchemas.some(nullable)) delete out[k];
      else Object.defineProperty(out, k, { value: propSchemas.reduce<unknown>((acc, p) => walk(acc, p), x), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return walk(value, schema);
}
