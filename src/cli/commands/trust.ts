import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sanitizeText } from '../../ui/text/sanitize.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { confirmTrust } from './confirm-trust.js';
import { BUNDLED_AGENTS_FILE } from '../team.js';
import { describeCode, rememberCode, TrustStore } from '../trust.js';

export interface TrustOptions {
  list?: boolean;
  revoke?: string;
  yes?: boolean;
}

const out = (s: string) => void process.stdout.write(sanitizeText(s));

/** `adk trust [DIR|FILE]`, `--list`, `--revoke DIR`. Shows what the file would do before recording trust. */
export async function trustCommand(target: string | undefined, opts: TrustOptions): Promise<number> {
  const store = new TrustStore();
  if (opts.list) {
    const entries = store.list();
    out(entries.length ? entries.map((e) => `${e.file}  sha256:${e.sha256.slice(0, 12)}  ${e.trustedAt}\n`).join('') : 'nothing is trusted: no agents file, folder settings file or command file\n');
    return ExitCode.ok;
  }
  if (opts.revoke) {
    const n = store.revoke(resolve(opts.revoke));
    out(n ? `revoked trust in ${resolve(opts.revoke)} (${n} file${n > 1 ? 's' : ''})\n` : `nothing was trusted in ${resolve(opts.revoke)}\n`);
    return ExitCode.ok;
  }
  // A folder's settings file (hooks, permission rules) is trusted by its bytes.
  const { isFolderSettingsFile, trustSettingsFile } = await import('./trust-settings.js');
  if (target && isFolderSettingsFile(resolve(target))) return trustSettingsFile(resolve(target), store, opts.yes);
  const file = realpathSync(agentsFileAt(resolve(target ?? '.')));
  const text = readFileSync(file, 'utf8');
  const { validateConfig, formatProblems, configPowers, teamFingerprint } = await import('../../core/config/index.js');
  const result = validateConfig({ text, file });
  if (!result.ok || !result.config) throw new CliError(formatProblems(result.problems), ExitCode.usage);
  const powers = configPowers(result.config);
  out(`${file}\n`);
  const fingerprint = await teamFingerprint(text, result.config);
  out(powers.length ? `It would:\n${powers.map((p) => `  - ${p.text}\n`).join('')}` : 'It runs nothing beyond the built-in tools; trust is not needed, but is recorded.\n');
  const code = describeCode(fingerprint.code);
  if (code.length) out(`Trust covers the code it runs; a change to any of it must be trusted again:\n${code.map((l) => `  - ${l}\n`).join('')}`);
  if (!(await confirmTrust(opts.yes, out))) return ExitCode.usage;
  const entry = store.trust(file, fingerprint.hash);
  rememberCode(fingerprint.hash, fingerprint.code);
  out(`trusted ${entry.file} (sha256:${entry.sha256.slice(0, 12)}); a changed file must be trusted again\n`);
  return ExitCode.ok;
}

function agentsFileAt(p: string): string {
  if (!existsSync(p)) throw new CliError(`${p} does not exist`, ExitCode.usage);
  const file = statSync(p).isDirectory() ? join(p, 'agents.yaml') : p;
  if (!existsSync(file)) throw new CliError(`${p} has no agents.yaml`, ExitCode.usage);
  if (realpathSync(file) === realpathSync(BUNDLED_AGENTS_FILE)) throw new CliError('the bundled agents.yaml is always trusted', ExitCode.usage);
  return file;
}

