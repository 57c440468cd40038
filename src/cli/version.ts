import { readFileSync } from 'node:fs';

/** Read from package.json next to dist/, so `adk --version` costs one small file read. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
