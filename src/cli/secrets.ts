import { scrubEnvironBlock } from './boot/environ-block.js';

/**
 * Secrets the stores must redact beyond the environment's OPENAI_API_KEY and `*_KEY`/`*_TOKEN`/
 * `*_SECRET` variables: the values of the variables an agents file names in `api_key_env`
 * (which may be called anything). Filled while a team is built; read on every save.
 */
const configSecrets = new Set<string>();

export function addConfigSecret(value: string | undefined): void {
  if (!value) return;
  if (value.length >= 8) configSecrets.add(value);
  // boot cleared the variables named as secrets from the environment block; this one may be named anything.
  scrubEnvironBlock((_name, v) => v === value);
}

export const configSecretValues = (): string[] => [...configSecrets];
