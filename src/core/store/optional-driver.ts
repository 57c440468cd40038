import { StoreError } from './errors.js';

/**
 * Imports a store driver that is an optional peer dependency: a missing one is a clear error that
 * names the package to install, not a stack trace about a module that cannot be resolved.
 */
export async function importDriver<T>(load: () => Promise<T>, pkg: string, scheme: string, display: string): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new StoreError('store_failed', `${scheme} stores need the ${pkg} package, which is not installed: run npm install ${pkg}`, display, { cause: e });
    }
    throw e;
  }
}
