import { realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { listHooks, parseHooks } from '../../core/middlewares/hooks/config.js';
import { hookPowerText } from '../../core/config/powers.js';
import { sanitizeText } from '../../ui/text/sanitize.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { confirmTrust } from './confirm-trust.js';
import { readSettingsFile, settingsValuePosition } from '../settings/settings-files.js';
import { describeCode, type TrustStore } from '../trust.js';
import { folderHooksCode, trustFolderHooks } from '../settings/hook-code-trust.js';

const out = (s: string) => void process.stdout.write(sanitizeText(s));

/** `.adk/settings.json` or `.adk/settings.local.json`: a folder's settings file, trusted by its bytes. */
export function isFolderSettingsFile(path: string): boolean {
  return basename(dirname(path)) === '.adk' && ['settings.json', 'settings.local.json'].includes(basename(path));
}

/**
 * `adk trust .adk/settings.json`: shows the hooks (and says there may be permission rules) the
 * file holds, then records trust in its exact bytes, as `adk chat` does when it asks.
 */
export async function trustSettingsFile(path: string, store: TrustStore, yes: boolean | undefined): Promise<number> {
  const file = realpathSync(path);
  const f = readSettingsFile(file.endsWith('settings.local.json') ? 'local' : 'project', file);
  if (f.error || !f.data || !f.sha256) throw new CliError(f.error ?? `${file} cannot be read`, ExitCode.usage);
  const { hooks: parsed, problems } = parseHooks(f.data.hooks);
  const hooks = listHooks(parsed);
  out(`${file}\n`);
  out(hooks.length ? `It would:\n${hooks.map((h) => `  - ${hookPowerText(h)}\n`).join('')}` : 'It runs no hooks.\n');
  // An entry adk cannot read is left out, here as in a run: said before anything is trusted.
  if (problems.length) out(`Left out (not run):\n${problems.map((p) => `  - ${file}:${settingsValuePosition(file, ['hooks', ...p.path])}: ${p.message}\n`).join('')}`);
  // Trust covers the workspace code the hooks run (hook-code-trust): a script changed later stops its hook.
  const code = (await folderHooksCode(dirname(dirname(file)), parsed)).all;
  const lines = describeCode(code);
  if (lines.length) out(`Trust covers the code its hooks run; a change to any of it must be trusted again:\n${lines.map((l) => `  - ${l}\n`).join('')}`);
  if (f.data.permissions !== undefined) out('It sets permission rules (see /permissions in adk chat).\n');
  if (!(await confirmTrust(yes, out))) return ExitCode.usage;
  trustFolderHooks(store, { path: file, sha256: f.sha256, code });
  const entry = store.list().find((e) => e.file === file) ?? { file, sha256: f.sha256 };
  out(`trusted ${entry.file} (sha256:${entry.sha256.slice(0, 12)}); a changed file must be trusted again\n`);
  return ExitCode.ok;
}
