/**
 * Typed access to a run's session values (Eino's GetSessionValue / AddSessionValue): the values every
 * agent of a run shares, that fill `{key}` in instructions and that `outputKey` writes.
 *
 * ```ts
 * const City = sessionKey<string>('city');
 * runner.query('…', { sessionValues: { [City.name]: 'Paris' } });
 * // in a tool:  const city = getSessionValue(ctx, City);      // string | undefined
 * //             setSessionValue(ctx, Visits, visits + 1);      // Visits = sessionKey<number>('visits')
 * ```
 */

/** A session value's name with the type of its value. Make one with `sessionKey<T>(name)`. */
export interface SessionKey<T> {
  readonly name: string;
  /** Type only, never set: the type of the value. */
  readonly valueType?: T | undefined;
}

/** A typed name for a session value: `sessionKey<string>('city')` reads and writes strings. */
export function sessionKey<T>(name: string): SessionKey<T> {
  return Object.freeze({ name });
}

type Values = Record<string, unknown>;

/**
 * What holds a run's session values: a tool's context (`sessionValues`), a run context (`session`,
 * what a custom agent's `run` gets), a middleware's context (`run`), or a Session.
 */
export type SessionValuesHolder =
  | { readonly sessionValues: Values }
  | { readonly session: { readonly values: Values } }
  | { readonly run: { readonly session: { readonly values: Values } } }
  | { readonly values: Values };

function valuesOf(from: SessionValuesHolder): Values {
  // A middleware's context has `values` of its own (run-local, by middleware): `run` comes first.
  if ('sessionValues' in from) return from.sessionValues;
  if ('session' in from) return from.session.values;
  if ('run' in from) return from.run.session.values;
  return from.values;
}

const nameOf = (key: SessionKey<unknown> | string): string => (typeof key === 'string' ? key : key.name);

/** The session value of `key`, or undefined when the run has none. */
export function getSessionValue<T>(from: SessionValuesHolder, key: SessionKey<T>): T | undefined;
export function getSessionValue(from: SessionValuesHolder, key: string): unknown;
export function getSessionValue(from: SessionValuesHolder, key: SessionKey<unknown> | string): unknown {
  const values = valuesOf(from);
  const name = nameOf(key);
  return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
}

/** Sets the session value of `key` for the rest of the run (and its checkpoint): later agents and tools see it. */
export function setSessionValue<T>(to: SessionValuesHolder, key: SessionKey<T>, value: NoInfer<T>): void;
export function setSessionValue(to: SessionValuesHolder, key: string, value: unknown): void;
export function setSessionValue(to: SessionValuesHolder, key: SessionKey<unknown> | string, value: unknown): void {
  valuesOf(to)[nameOf(key)] = value;
}
