import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAdkHome, redactJsonText, secretsFromEnv, type SessionRecord } from '../core/store/index.js';
import { configSecretValues } from './secrets.js';

/**
 * The last resort when a session cannot be saved (the store stayed down): the record, secrets
 * redacted, goes to `ADK_HOME/unsaved/<id>.json` (owner-only) so the conversation is not lost.
 * Returns the file, or undefined when even that failed.
 */
export function writeUnsavedSession(record: SessionRecord, env: NodeJS.ProcessEnv = process.env): string | undefined {
  try {
    const dir = join(defaultAdkHome(env), 'unsaved');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${record.id}.json`);
    const secrets = [...secretsFromEnv(env), ...configSecretValues()];
    writeFileSync(file, `${redactJsonText(JSON.stringify(record), secrets)}\n`, { mode: 0o600 });
    return file;
  } catch {
    return undefined;
  }
}
