import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultAdkHome } from '../../core/store/store-url.js';

/** The environment variable that gives serve and workers on several machines one queue key. */
export const QUEUE_KEY_ENV = 'ADK_QUEUE_KEY';
/** The key's file under ADK_HOME when ADK_QUEUE_KEY is not set (serve and workers on one machine). */
export const QUEUE_KEY_FILE = 'queue-key';
/** A shorter key is refused: it could be guessed. */
const MIN_KEY_CHARS = 32;

/** The queue key could not be read or made (the message never holds the key). */
export class QueueKeyError extends Error {}

/**
 * The key `adk serve` signs queued turns with and `adk worker` checks them with: ADK_QUEUE_KEY when
 * set, else the text of `$ADK_HOME/queue-key`, made (32 random bytes, hex) the first time either
 * runs. The key is the text's UTF-8 bytes, so the file's content works as ADK_QUEUE_KEY elsewhere.
 */
export function loadQueueKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const given = env[QUEUE_KEY_ENV]?.trim();
  if (given) {
    if (given.length < MIN_KEY_CHARS) throw new QueueKeyError(`${QUEUE_KEY_ENV} must be at least ${MIN_KEY_CHARS} characters (e.g. \`openssl rand -hex 32\`)`);
    return Buffer.from(given, 'utf8');
  }
  const home = defaultAdkHome(env);
  const file = join(home, QUEUE_KEY_FILE);
  if (!exists(file)) create(home, file);
  return readKeyFile(file);
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new QueueKeyError(`cannot read the queue key ${file}: ${(e as Error).message}`);
  }
}

/**
 * Writes a new key whole to a temp file (0600) and links it into place: a process making one at the
 * same moment either wins (this one's link fails and its key is read) or loses; both use the winner's.
 */
function create(home: string, file: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return;
      // A file system without hard links: rename (the last of two racing writers wins; both read it back).
      renameSync(temp, file);
    }
  } catch (e) {
    throw new QueueKeyError(`cannot write the queue key ${file}: ${(e as Error).message}`);
  } finally {
    rmSync(temp, { force: true });
  }
}

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    const stat = lstatSync(file);
    if (!stat.isFile()) throw new QueueKeyError(`the queue key ${file} is not a regular file`);
    // Anyone else who can read it can sign jobs; anyone who can write it can swap it.
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new QueueKeyError(`the queue key ${file} is open to other users (mode ${(stat.mode & 0o777).toString(8)}): chmod 600 it, or set ${QUEUE_KEY_ENV}`);
    }
    text = readFileSync(file, 'utf8').trim();
  } catch (e) {
    if (e instanceof QueueKeyError) throw e;
    throw new QueueKeyError(`cannot read the queue key ${file}: ${(e as Error).message}`);
  }
  if (text.length < MIN_KEY_CHARS) throw new QueueKeyError(`the queue key ${file} is shorter than ${MIN_KEY_CHARS} characters: delete it (a new one is made) or set ${QUEUE_KEY_ENV}`);
  return Buffer.from(text, 'utf8');
}
