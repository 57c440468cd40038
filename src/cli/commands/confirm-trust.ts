import { createInterface } from 'node:readline/promises';
import { CliError, ExitCode } from '../exit-codes.js';

/** Asks "Trust this file?" unless `--yes`; false (said on stdout) when the person did not say yes. */
export async function confirmTrust(yes: boolean | undefined, out: (s: string) => void): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) throw new CliError('adk trust asks before it records trust; pass --yes when no one can answer (scripts, CI)', ExitCode.usage);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const answer = (await rl.question('Trust this file? [y/N] ')).trim().toLowerCase();
  rl.close();
  if (answer === 'y' || answer === 'yes') return true;
  out('not trusted\n');
  return false;
}
