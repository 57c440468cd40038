/**
 * A dynamically imported CommonJS package's exports by name, whichever way it was loaded: Node gives
 * them by name, but an ES-module bundle (the REPL's) gives a bundled CommonJS package as its default
 * export only. `key` is a name the package must export (how the two shapes are told apart).
 */
export function namedExports<T extends object>(m: T, key: keyof T): T {
  return key in m && m[key] !== undefined ? m : ((m as { default?: T }).default ?? m);
}
