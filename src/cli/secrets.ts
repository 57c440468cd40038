/**
 * Secrets the stores must redact beyond the environment's OPENAI_API_KEY and `*_KEY`/`*_TOKEN`/
 * `*_SECRET` variables: the values of the variables an agents file names in `api_key_env`
 * (which may be called anything). Filled while a team is built; read on every save.
 */
const configSecrets = new Set<string>();

export function addConfigSecret(value: string | undefined): void {
  if (value && value.length >= 8) configSecrets.add(value);
}

export const configSecretValues = (): string[] => [...configSecrets];
