import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAdkHome } from '../core/store/store-url.js';

/** The settings `adk config` keeps, and the environment variable each one stands in for. */
export const SETTINGS = {
  model: { env: 'ADK_MODEL', description: 'model name when neither --model nor ADK_MODEL is given' },
  base_url: { env: 'OPENAI_BASE_URL', description: 'OpenAI-compatible endpoint when OPENAI_BASE_URL is unset' },
  store: { env: 'ADK_STORE', description: 'session store URL when ADK_STORE is unset' },
  shell_env: { env: 'ADK_SHELL_ENV', description: 'further environment variables shell commands see, e.g. "GOPATH NPM_CONFIG_REGISTRY"' },
  sandbox_read_paths: { env: 'ADK_SANDBOX_READ_PATHS', description: 'paths outside the workspace sandboxed commands may read (the rest of $HOME is hidden), e.g. "~/.cargo/registry ~/go/pkg"' },
  shell_sandbox: { env: 'ADK_SHELL_SANDBOX', description: '"off" runs shell commands without the bwrap sandbox' },
  fetch_allow_hosts: { env: 'ADK_FETCH_ALLOW_HOSTS', description: 'private hosts fetch_url may reach, e.g. "localhost:8080 10.0.0.0/8"' },
} as const;

export type SettingName = keyof typeof SETTINGS;

/** Names that look like credentials: never stored in the settings file. */
export const SECRET_SETTING = /key|token|secret|password|passwd|credential/i;

export const SETTINGS_FILE_NAME = 'config.json';

export const settingsFile = (env: NodeJS.ProcessEnv = process.env): string => join(defaultAdkHome(env), SETTINGS_FILE_NAME);

/**
 * Fills unset environment variables from the settings file; the environment always wins.
 * Read without `conf` so commands that only need the values stay fast; a missing or unreadable
 * file means no settings.
 */
export function applySettings(env: NodeJS.ProcessEnv = process.env): void {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(settingsFile(env), 'utf8'));
  } catch {
    return;
  }
  if (!data || typeof data !== 'object') return;
  for (const [name, spec] of Object.entries(SETTINGS)) {
    const value = (data as Record<string, unknown>)[name];
    if (typeof value === 'string' && value && !env[spec.env]) env[spec.env] = value;
  }
}

/**
 * The calls the person allowed without asking in one project folder (`adk config set allow …` run
 * there), as rule texts. Kept under `projects.<realpath>.allow` in the settings file.
 */
export function projectAllowRules(workspace: string, env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const data = JSON.parse(readFileSync(settingsFile(env), 'utf8')) as { projects?: Record<string, { allow?: unknown }> };
    const allow = data.projects?.[workspace]?.allow;
    return Array.isArray(allow) ? allow.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** `shell(git status*); shell(npm test)` → the rule texts. */
export function splitRules(value: string): string[] {
  return value
    .split(/[;\n]/)
    .map((r) => r.trim())
    .filter(Boolean);
}
