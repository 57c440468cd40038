/**
 * Token values must be redacted wherever adk writes text. Core cannot import the CLI's secret list,
 * so the CLI registers a sink here (`setOAuthSecretSink(addConfigSecret)`); every value seen before
 * that is replayed to it.
 */
type Sink = (value: string) => void;

const seen = new Set<string>();
let sink: Sink | undefined;

export function setOAuthSecretSink(next: Sink | undefined): void {
  sink = next;
  if (next) for (const value of seen) next(value);
}

/** The secret values adk has read or written for any MCP server so far (for tests and redactors). */
export const oauthSecretValues = (): string[] => [...seen];

export function reportSecret(value: string | undefined): void {
  if (!value || seen.has(value)) return;
  seen.add(value);
  sink?.(value);
}

/** Access token, refresh token, ID token and client secret of a record. */
export function reportSecrets(record: { tokens?: { access_token?: string; refresh_token?: string; id_token?: string }; client?: object }): void {
  reportSecret(record.tokens?.access_token);
  reportSecret(record.tokens?.refresh_token);
  reportSecret(record.tokens?.id_token);
  const secret = (record.client as { client_secret?: unknown } | undefined)?.client_secret;
  reportSecret(typeof secret === 'string' ? secret : undefined);
}
