import { importOptional, notInstalled } from '../optional-peer.js';
import { StoreError } from './errors.js';

/** Imports a store driver that is an optional peer dependency; a missing one names the package to install. */
export function importDriver<T>(load: () => Promise<T>, pkg: string, scheme: string, display: string): Promise<T> {
  return importOptional(load, pkg, () => new StoreError('store_failed', `${scheme} stores need ${notInstalled(pkg)}`, display));
}
