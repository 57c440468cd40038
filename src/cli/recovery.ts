import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAdkHome, redactJsonText, secretsFromEnv, type SessionRecord } from '../core/store/index.js';
import { configSecretValues } from './secrets.js';

/** Where a session that could not be saved went: its file, or the folder nothing was written to and why. */
export type UnsavedOutcome = { file: string } | { dir: string; error: string };

/**
 * The last resort when a session cannot be saved (the store stayed down or is full, the lease was
 * lost): the record, secrets redacted, goes to `ADK_HOME/unsaved/<id>.json` (owner-only) so the
 * conversation is not lost. Written whole or not at all: a temp file, then renamed; a full disk
 * leaves no empty or partial file behind.
 */
export function writeUnsavedSession(record: SessionRecord, env: NodeJS.ProcessEnv = process.env): UnsavedOutcome {
  const dir = join(defaultAdkHome(env), 'unsaved');
  const file = join(dir, `${record.id}.json`);
  const temp = join(dir, `.${record.id}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const secrets = [...secretsFromEnv(env), ...configSecretValues()];
    const text = `${redactJsonText(JSON.stringify(record), secrets)}\n`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd); // a disk that fills up on flush says so here, not after the rename
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    return { file };
  } catch (e) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing more to do: the temp name is not the session's
    }
    return { dir, error: systemErrorText(e) };
  }
}

/** `ENOSPC: no space left on device`: a system error without the call and the (temp) path Node appends. */
function systemErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error)) return String(e);
  const cut = err.syscall ? err.message.indexOf(`, ${err.syscall}`) : -1;
  return cut > 0 ? err.message.slice(0, cut) : err.message;
}
