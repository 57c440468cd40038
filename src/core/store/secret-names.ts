const SECRET_NAME = /(_KEY|_TOKEN|_SECRET)$/;

/**
 * The environment variables that hold secrets: OPENAI_API_KEY and every name ending in `_KEY`,
 * `_TOKEN` or `_SECRET` (ANTHROPIC_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY's kin, ADK_SERVE_TOKEN).
 * A file of its own so that the CLI's boot can use it without the rest of the store.
 */
export function isSecretName(name: string): boolean {
  return name === 'OPENAI_API_KEY' || SECRET_NAME.test(name.toUpperCase());
}
