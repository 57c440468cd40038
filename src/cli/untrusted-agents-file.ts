import { dirname } from 'node:path';
import type { ConfigPower } from '../core/config/index.js';
import { CliError, ExitCode } from './exit-codes.js';

/** The folder's agents file would run code or move keys, and the person has not trusted it. */
export class UntrustedAgentsFileError extends CliError {
  constructor(
    readonly file: string,
    readonly hash: string,
    readonly powers: ConfigPower[],
  ) {
    super(
      `${file} is not trusted. It:${powers.map((p) => `\n  - ${p.text}`).join('')}\n` +
        `adk runs a folder's agents.yaml only once you trust it (a cloned repository must not run code or redirect your keys). ` +
        `Read the file, then run: adk trust ${dirname(file)}`,
      ExitCode.usage,
    );
  }
}
