// What checkpoints keep that plain JSON loses (Eino: schema.RegisterName). A value JSON cannot
// carry is written as a tagged object `{"$adk": "<type>", "v": <data>}`; everything else is written
// as JSON writes it, so a checkpoint without such values is the JSON it always was, and one written
// before tags existed reads as it always did.
import { ConfigError } from '../errors.js';

/**
 * How values of one type are written into a checkpoint and read back: `encode` turns a value into
 * data (which may itself hold Dates, Maps, registered types, …), `decode` turns that data back.
 * Values are recognised by `is`, or else as instances of `ctor`.
 */
export interface CheckpointType<T = unknown> {
  /** The class whose instances (subclasses included) are this type. */
  ctor?: (abstract new (...args: never[]) => T) | undefined;
  /** Recognises values of this type (used instead of `ctor` when given). */
  is?: ((value: unknown) => boolean) | undefined;
  encode(value: T): unknown;
  decode(data: unknown): T;
}

/** Where a tagged value names its type. */
const TAG = '$adk';
/** Plain objects that happen to have an own `$adk` key are written under this tag, as entries. */
const ESCAPED = 'object';

interface Entry {
  name: string;
  type: CheckpointType<unknown>;
}

const builtins: Entry[] = [
  { name: 'Date', type: { ctor: Date, encode: (d: Date) => (Number.isNaN(d.getTime()) ? null : d.toISOString()), decode: (s) => new Date(s === null ? Number.NaN : (s as string)) } as CheckpointType<unknown> },
  { name: 'Map', type: { ctor: Map, encode: (m: Map<unknown, unknown>) => [...m], decode: (e) => new Map(e as Array<[unknown, unknown]>) } as CheckpointType<unknown> },
  { name: 'Set', type: { ctor: Set, encode: (s: Set<unknown>) => [...s], decode: (v) => new Set(v as unknown[]) } as CheckpointType<unknown> },
  { name: 'BigInt', type: { is: (v) => typeof v === 'bigint', encode: (b) => String(b), decode: (s) => BigInt(s as string) } },
  { name: 'Uint8Array', type: { ctor: Uint8Array, encode: (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64'), decode: (s) => new Uint8Array(Buffer.from(s as string, 'base64')) } as CheckpointType<unknown> },
];
const BIGINT = builtins.find((b) => b.name === 'BigInt')!;
const RESERVED = new Set([...builtins.map((b) => b.name), ESCAPED]);
const registered = new Map<string, Entry>();

/**
 * Lets checkpoints carry values of a type of yours (in session values or a tool's saved state): every
 * process that writes or resumes such a checkpoint registers the type under the same name, as with
 * Eino's `schema.RegisterName`. Date, Map, Set, BigInt and Uint8Array are built in. Registering a name
 * again replaces its definition.
 *
 * ```ts
 * registerCheckpointType('Money', { ctor: Money, encode: (m) => ({ cents: m.cents, currency: m.currency }), decode: (d: any) => new Money(d.cents, d.currency) });
 * ```
 */
export function registerCheckpointType<T>(name: string, type: CheckpointType<T>): void {
  if (typeof name !== 'string' || !name) throw new ConfigError('registerCheckpointType needs a non-empty name');
  if (RESERVED.has(name)) throw new ConfigError(`registerCheckpointType: "${name}" is built in; register your type under another name`);
  if (!type || (typeof type.is !== 'function' && typeof type.ctor !== 'function')) {
    throw new ConfigError(`registerCheckpointType("${name}") needs \`ctor\` or \`is\` to recognise its values`);
  }
  if (typeof type.encode !== 'function' || typeof type.decode !== 'function') throw new ConfigError(`registerCheckpointType("${name}") needs \`encode\` and \`decode\``);
  registered.set(name, { name, type: type as CheckpointType<unknown> });
}

/** A value's registered or built-in type: exact classes first, then `is` and subclasses, registered before built-in. */
function typeOf(v: unknown): Entry | undefined {
  if (typeof v === 'bigint') return BIGINT;
  if (typeof v !== 'object' || v === null) {
    for (const e of registered.values()) if (e.type.is?.(v)) return e;
    return undefined;
  }
  const proto = Object.getPrototypeOf(v) as object | null;
  for (const e of registered.values()) if (!e.type.is && e.type.ctor?.prototype === proto) return e;
  for (const e of registered.values()) if (e.type.is ? e.type.is(v) : v instanceof (e.type.ctor as abstract new () => unknown)) return e;
  if (proto === Object.prototype || proto === null || Array.isArray(v)) return undefined;
  for (const e of builtins) if (e.type.ctor && v instanceof e.type.ctor) return e;
  return undefined;
}

/** Thrown while reading: the text names a type this process has not registered. */
export class UnknownCheckpointTypeError extends Error {
  constructor(readonly typeName: string) {
    super(`unknown type "${typeName}"`);
  }
}

/** Thrown while reading: a type's `decode` failed. */
export class CheckpointDecodeError extends Error {
  constructor(
    readonly typeName: string,
    cause: unknown,
  ) {
    super(`reading a "${typeName}" failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** Objects JSON.stringify would serialise through their own `toJSON` (a checkpoint's marker is not one of them). */
export const PLAIN_TO_JSON = Symbol.for('adk.checkpoint.plainToJSON');

/**
 * `value` as plain JSON data: registered and built-in types become tagged objects, anything else
 * is what JSON.stringify makes of it (toJSON honoured, undefined and functions dropped). A value
 * that contains itself is refused with the path where it does.
 */
export function encodeValue(value: unknown): unknown {
  const open = new Set<object>();
  const walk = (v: unknown, key: string, path: string): unknown => {
    const known = typeOf(v);
    if (known) {
      if (typeof v === 'object' && v) enter(v, path);
      try {
        return { [TAG]: known.name, v: walk(known.type.encode(v), '', `${path}<${known.name}>`) };
      } finally {
        if (typeof v === 'object' && v) open.delete(v);
      }
    }
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      if (typeof v === 'number' && !Number.isFinite(v)) return null;
      return v;
    }
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function' && !(toJSON as { [PLAIN_TO_JSON]?: boolean })[PLAIN_TO_JSON]) return walk(toJSON.call(v, key), key, path);
    if (v instanceof Number || v instanceof String || v instanceof Boolean) return v.valueOf();
    // An instance of a class nobody registered would come back a plain object, its methods gone: said now, not found later.
    const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
    if (proto !== null && proto !== Object.prototype && !Array.isArray(v) && !ArrayBuffer.isView(v)) {
      const name = typeof proto.constructor === 'function' && proto.constructor.name ? proto.constructor.name : 'a class';
      throw new TypeError(
        `the value at ${path || '(root)'} is an instance of ${name}, which a checkpoint cannot bring back: register it with registerCheckpointType('${name}', { ctor: ${name}, encode, decode }), give it a toJSON(), or store plain data`,
      );
    }
    enter(v, path);
    try {
      if (Array.isArray(v)) return v.map((x, i) => walk(x, String(i), `${path}[${i}]`) ?? null);
      const out: Record<string, unknown> = {};
      const entries: Array<[string, unknown]> = [];
      for (const k of Object.keys(v)) {
        const x = walk((v as Record<string, unknown>)[k], k, `${path}.${k}`);
        if (x !== undefined) entries.push([k, x]);
      }
      // A plain object with its own `$adk` key would read as a tag: written as entries instead.
      if (Object.hasOwn(v, TAG)) return { [TAG]: ESCAPED, v: entries };
      for (const [k, x] of entries) Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
      return out;
    } finally {
      open.delete(v);
    }
  };
  const enter = (o: object, path: string) => {
    if (open.has(o)) throw new TypeError(`the value at ${path || '(root)'} contains itself; checkpoints hold trees, not cycles`);
    open.add(o);
  };
  return walk(value, '', '');
}

/** `JSON.stringify` of encodeValue. */
export function stringifyValue(value: unknown): string {
  return JSON.stringify(encodeValue(value));
}

/**
 * Parses JSON written by stringifyValue (or plain JSON), turning tagged objects back into their
 * values. Throws SyntaxError, UnknownCheckpointTypeError or CheckpointDecodeError.
 */
export function parseValue(text: string): unknown {
  // Text without a tag is plain JSON (every checkpoint written before tags existed).
  if (!text.includes(`"${TAG}"`)) return JSON.parse(text);
  return JSON.parse(text, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    const name = o[TAG];
    if (typeof name !== 'string' || !('v' in o) || Object.keys(o).length !== 2) return v;
    if (name === ESCAPED) return Object.fromEntries(o.v as Array<[string, unknown]>);
    const entry = registered.get(name) ?? builtins.find((b) => b.name === name);
    if (!entry) throw new UnknownCheckpointTypeError(name);
    try {
      return entry.type.decode(o.v);
    } catch (e) {
      throw new CheckpointDecodeError(name, e);
    }
  });
}
