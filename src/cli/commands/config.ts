import { mkdirSync, realpathSync } from 'node:fs';
import { CliError } from '../exit-codes.js';
import { parseAllowRule } from '../../core/agents/allow-rules.js';
import { projectAllowRules, SECRET_SETTING, SETTINGS, SETTINGS_FILE_NAME, settingsFile, splitRules, type SettingName } from '../settings.js';
import { defaultAdkHome } from '../../core/store/store-url.js';

const out = (s: string) => void process.stdout.write(s);

/** The settings file, owner-only (0600) in an owner-only ADK_HOME, whatever the umask. */
async function openSettings() {
  const { default: Conf } = await import('conf');
  const home = defaultAdkHome();
  mkdirSync(home, { recursive: true, mode: 0o700 });
  return new Conf<Record<string, unknown>>({
    cwd: home,
    configName: SETTINGS_FILE_NAME.replace(/\.json$/, ''),
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    projectName: 'adk',
  });
}

function checkName(name: string | undefined, action: string): SettingName {
  if (!name) throw new CliError(`usage: adk config ${action} <name>; names: ${Object.keys(SETTINGS).join(', ')}`);
  if (SECRET_SETTING.test(name)) {
    throw new CliError(
      `adk config does not store API keys or other secrets ("${name}"): set OPENAI_API_KEY (or the variable named by api_key_env in agents.yaml) in the environment instead`,
    );
  }
  if (!(name in SETTINGS)) throw new CliError(`unknown setting "${name}"; settings: ${Object.keys(SETTINGS).join(', ')}`);
  return name as SettingName;
}

/** The per-project allow-list: rules for calls that run without asking in the current folder. */
async function projectAllow(action: string, value: string | undefined): Promise<number> {
  const conf = await openSettings();
  const folder = realpathSync(process.cwd());
  const projects = { ...((conf.get('projects') as Record<string, { allow?: string[] }> | undefined) ?? {}) };
  switch (action) {
    case 'get': {
      const rules = projectAllowRules(folder);
      if (!rules.length) return 1;
      out(`${rules.join('; ')}\n`);
      return 0;
    }
    case 'set': {
      if (value === undefined) throw new CliError('usage: adk config set allow "shell(git status*); shell(npm test)" (in the project folder)');
      const rules = splitRules(value);
      const bad = rules.map(parseAllowRule).filter((r): r is string => typeof r === 'string');
      if (bad.length) throw new CliError(bad.join('\n'));
      projects[folder] = { ...projects[folder], allow: rules };
      conf.set('projects', projects);
      out(`allowed without asking in ${folder}: ${rules.join('; ')}\n`);
      return 0;
    }
    default:
      delete projects[folder];
      conf.set('projects', projects);
      return 0;
  }
}

/** `adk config get|set|unset|list|path`: user settings under ADK_HOME (the environment wins over them). */
export async function configCommand(action: string | undefined, name: string | undefined, value: string | undefined): Promise<number> {
  if (name === 'allow' && (action === 'get' || action === 'set' || action === 'unset')) return projectAllow(action, value);
  switch (action ?? 'list') {
    case 'path':
      out(`${settingsFile()}\n`);
      return 0;
    case 'list': {
      const conf = await openSettings();
      for (const [key, spec] of Object.entries(SETTINGS)) {
        const v = conf.get(key);
        out(`${key}=${v ?? ''}${v === undefined ? `  (unset: ${spec.description})` : ''}\n`);
      }
      const allow = projectAllowRules(realpathSync(process.cwd()));
      out(`allow=${allow.join('; ')}  (this folder: calls that run without asking, e.g. "shell(npm test)")\n`);
      return 0;
    }
    case 'get': {
      const key = checkName(name, 'get');
      const v = (await openSettings()).get(key);
      if (v === undefined) return 1;
      out(`${v}\n`);
      return 0;
    }
    case 'set': {
      const key = checkName(name, 'set');
      if (value === undefined) throw new CliError(`usage: adk config set ${key} <value>`);
      (await openSettings()).set(key, value);
      return 0;
    }
    case 'unset':
      (await openSettings()).delete(checkName(name, 'unset'));
      return 0;
    default:
      throw new CliError(`unknown config action "${action}": use get, set, unset, list or path`);
  }
}
