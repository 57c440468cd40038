/** Whether an import failed because the package is not installed (as opposed to failing to load). */
export function isMissingModule(e: unknown, pkg: string): boolean {
  const err = e as NodeJS.ErrnoException;
  return (err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') && String(err.message).includes(pkg);
}

/** "the X package, which is not installed: run npm install X" */
export const notInstalled = (pkg: string): string => `the ${pkg} package, which is not installed: run npm install ${pkg}`;

/**
 * Imports an optional peer dependency. A missing one becomes the error `missing()` builds (say what
 * needed it, then `notInstalled(pkg)`), not a stack trace about a module that cannot be resolved.
 */
export async function importOptional<T>(load: () => Promise<T>, pkg: string, missing: () => Error): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isMissingModule(e, pkg)) throw Object.assign(missing(), { cause: e });
    throw e;
  }
}
