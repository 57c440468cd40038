import { ConfigError } from '../errors.js';
import type { Agent } from './types.js';

/**
 * Checks of the options objects public constructors take (`new ChatModelAgent({…})`,
 * `supervisor({…})`, …): a wrong or missing option is a ConfigError naming it, never a TypeError
 * from deep inside. Spellings from Eino (Go's `MaxIterations`, `ToolsConfig`, the docs' `Workers`)
 * are answered with adk's spelling.
 */

/** The options one constructor takes, and the other spellings it answers with one of them. */
export interface OptionSpec {
  known: readonly string[];
  /** Eino's (or its docs') names for an option adk spells otherwise: `workers` → `subAgents`. */
  aliases?: Readonly<Record<string, string>> | undefined;
}

/** What a value is, for a message: `undefined`, `"gpt-4o" (a string)`, `an array`. */
export function describeValue(v: unknown): string {
  if (v === undefined || v === null) return String(v);
  if (typeof v === 'string') return `${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)} (a string)`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${v} (a ${typeof v})`;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'function') return 'a function';
  return 'an object';
}

/** `kind 'name'` when the options carry a name, else `kind`: how messages name the thing being built. */
export function who(kind: string, options: unknown): string {
  const name = (options as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' && name.trim() ? `${kind} '${name}'` : kind;
}

/** The options as a record, after checking it is one and that every key is an option `spec` knows. */
export function checkOptions(label: string, options: unknown, spec: OptionSpec): Record<string, unknown> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigError(`${label}: expected an options object, got ${describeValue(options)}`);
  }
  const unknown = Object.keys(options).filter((k) => !spec.known.includes(k));
  if (unknown.length) throw new ConfigError(unknown.map((k) => `${label}: unknown option '${k}'${suggest(k, spec)}`).join('\n'));
  return options as Record<string, unknown>;
}

/** `; did you mean 'x'?`, or the list of options when nothing is close. */
function suggest(key: string, spec: OptionSpec): string {
  const alias = spec.aliases?.[key] ?? Object.entries(spec.aliases ?? {}).find(([k]) => norm(k) === norm(key))?.[1];
  const close = alias ?? spec.known.find((k) => norm(k) === norm(key)) ?? spec.known.find((k) => distance(norm(k), norm(key)) <= 2);
  return close ? `; did you mean '${close}'?` : ` (options: ${spec.known.join(', ')})`;
}

/** Go's `MaxIterations`, YAML's `max_iterations` and adk's `maxIterations` compare equal. */
const norm = (s: string): string => s.toLowerCase().replace(/[_-]/g, '');

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** An object with a name and `run()`: what every agent is. */
export function isAgent(v: unknown): v is Agent {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as Agent).name === 'string' && typeof (v as Agent).run === 'function';
}

/** A required agent option: `option 'executor' is required` / `must be an agent`. */
export function requireAgent(label: string, option: string, v: unknown, why = ''): Agent {
  if (v === undefined || v === null) throw new ConfigError(`${label}: option '${option}' is required${why}`);
  if (!isAgent(v)) throw new ConfigError(`${label}: option '${option}' must be an agent (an object with a name and run()), got ${describeValue(v)}`);
  return v;
}

/** A list of agents; `required` asks for at least one. */
export function requireAgentList(label: string, option: string, v: unknown, required: boolean): Agent[] {
  if (v === undefined || v === null) {
    if (required) throw new ConfigError(`${label}: option '${option}' is required: a list of at least one agent`);
    return [];
  }
  if (!Array.isArray(v)) throw new ConfigError(`${label}: option '${option}' must be a list of agents, got ${describeValue(v)}`);
  if (required && !v.length) throw new ConfigError(`${label}: option '${option}' is required: a list of at least one agent, got an empty list`);
  v.forEach((a, i) => {
    if (!isAgent(a)) throw new ConfigError(`${label}: option '${option}[${i}]' must be an agent (an object with a name and run()), got ${describeValue(a)}`);
  });
  return v as Agent[];
}

/** A required non-empty string. */
export function requireName(label: string, option: string, v: unknown): string {
  if (v === undefined || v === null) throw new ConfigError(`${label}: option '${option}' is required`);
  if (typeof v !== 'string') throw new ConfigError(`${label}: option '${option}' must be a string, got ${describeValue(v)}`);
  if (!v.trim()) throw new ConfigError(`${label}: option '${option}' must not be empty`);
  return v;
}

/** Checks the type of each optional option present (undefined counts as absent). */
export function checkTypes(label: string, options: Record<string, unknown>, types: Record<string, OptionType>): void {
  for (const [key, type] of Object.entries(types)) {
    const v = options[key];
    if (v === undefined) continue;
    const problem = TYPE_CHECKS[type](v);
    if (problem) throw new ConfigError(`${label}: option '${key}' ${problem}, got ${describeValue(v)}`);
  }
}

/** A chat model: an object with generate() or stream(). */
export function isChatModel(v: unknown): boolean {
  const m = v as { generate?: unknown; stream?: unknown } | null;
  return typeof m === 'object' && m !== null && (typeof m.generate === 'function' || typeof m.stream === 'function');
}

/** A required chat model option. */
export function requireChatModel(label: string, option: string, v: unknown): void {
  if (v === undefined || v === null) throw new ConfigError(`${label}: option '${option}' is required (a chat model)`);
  if (!isChatModel(v)) throw new ConfigError(`${label}: option '${option}' must be a chat model (an object with generate() and stream()), got ${describeValue(v)}`);
}

/** Tools: a list of objects with a name and execute(). */
export function checkTools(label: string, option: string, v: unknown): void {
  if (v === undefined) return;
  if (!Array.isArray(v)) throw new ConfigError(`${label}: option '${option}' must be a list of tools, got ${describeValue(v)}`);
  v.forEach((t, i) => {
    const tool = t as { name?: unknown; execute?: unknown } | null;
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function') {
      throw new ConfigError(`${label}: option '${option}[${i}]' must be a tool (an object with a name and execute()), got ${describeValue(t)}`);
    }
  });
}

export type OptionType = 'string' | 'boolean' | 'function' | 'object' | 'number' | 'count' | 'strings' | 'list' | 'boolean-or-tool';

const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPE_CHECKS: Record<OptionType, (v: unknown) => string | undefined> = {
  string: (v) => (typeof v === 'string' ? undefined : 'must be a string'),
  boolean: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
  function: (v) => (typeof v === 'function' ? undefined : 'must be a function'),
  object: (v) => (isPlainObject(v) ? undefined : 'must be an object'),
  number: (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a number'),
  count: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? undefined : 'must be a whole number, 0 or more'),
  strings: (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? undefined : 'must be a list of strings'),
  list: (v) => (Array.isArray(v) ? undefined : 'must be a list'),
  'boolean-or-tool': (v) =>
    typeof v === 'boolean' || (isPlainObject(v) && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { execute?: unknown }).execute === 'function')
      ? undefined
      : 'must be true, false or a tool',
};

/**
 * A description for an agent another one routes by (a transfer target, a supervisor's worker, an
 * agent tool, a deep agent's sub-agent): the router reads it to decide, so it may not be missing.
 */
export function hasDescription(a: Agent): boolean {
  const d = (a as { description?: unknown }).description;
  return typeof d === 'string' && d.trim() !== '';
}
