/**
 * `import()` of what is not bundled: optional peer packages (resolved from adk's own folder) and
 * people's module files (by file URL). One place, because the CLI's CommonJS bundle runs from V8's
 * code cache, where Node 20 cannot run an `import()` written in the bundle itself: its build swaps
 * this module for one that asks the loader outside the bundle (scripts/bundle.mjs).
 */
export function importModule<T = Record<string, unknown>>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
