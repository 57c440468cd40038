import type { AdkStores, SessionLease, SessionRecord, SessionSummary } from '../../core/store/index.js';
import { forkSession } from '../../core/conversation/rewind.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { realPathOrSelf } from '../paths.js';
import { lockedNewId, lockedSession } from '../session-access.js';
import { FileCheckpoints } from '../rewind/file-checkpoints.js';
import type { StartupKeys } from './startup-keys.js';
import { importInkInteractive } from './ink-interactive.js';

/** How `adk chat` / `adk resume` choose the session they open. */
export interface SessionChoice {
  /** An id or unique prefix (`adk resume <id>`). */
  resume?: string | undefined;
  /** `adk chat -c`: this folder's most recent session. */
  continue?: boolean | undefined;
  /** `adk resume` with no id: a list to pick from (typing filters it). */
  pick?: boolean | undefined;
  /** `--fork`: a new session with the chosen one's history; the chosen one stays as it is. */
  fork?: boolean | undefined;
}

/** The most recent session whose tools work in `folder` (sessions of other folders never count). */
export async function latestSessionIn(stores: AdkStores, folder: string): Promise<SessionSummary | undefined> {
  const here = realPathOrSelf(folder);
  return (await stores.sessions.list()).find((s): s is SessionSummary => !s.corrupt && s.workspace === here && s.messageCount > 0);
}

/** The session to open (leased by this process), or undefined for a new one; `null` when the person cancelled the list. */
export async function openChosenSession(stores: AdkStores, o: SessionChoice, keys?: StartupKeys): Promise<{ record: SessionRecord; lease: SessionLease } | undefined | null> {
  let id = o.resume;
  if (o.continue) {
    const latest = await latestSessionIn(stores, process.cwd());
    if (!latest) throw new CliError(`no saved session in ${realPathOrSelf(process.cwd())} to continue; start one with: adk chat`, ExitCode.usage);
    id = latest.id;
  }
  if (o.pick && !id) {
    const list = (await stores.sessions.list()).filter((s): s is SessionSummary => !s.corrupt);
    if (!list.length) throw new CliError('no saved sessions yet; start one with: adk chat', ExitCode.usage);
    // Ink may be loaded here first: as interactive, whatever CI says (see ink-interactive.ts).
    const { pickSessionInline } = await importInkInteractive(() => import('../chat/pick-session-inline.js') /* the path the CommonJS bundle keeps the REPL out by */);
    keys?.handOver();
    const picked = await pickSessionInline(list);
    keys?.resume();
    if (!picked) return null;
    id = picked;
  }
  if (!id) return undefined;
  return o.fork ? forkedSession(stores, id) : lockedSession(stores, id);
}

/** A fork of session `idOrPrefix` (all its messages), leased by this process; its file checkpoints come along. */
export async function forkedSession(stores: AdkStores, idOrPrefix: string): Promise<{ record: SessionRecord; lease: SessionLease }> {
  const source = await stores.sessions.resolveId(idOrPrefix);
  const { lease } = await lockedNewId(stores);
  try {
    const record = await forkSession(stores, source, lease);
    await new FileCheckpoints().fork(source, record.id);
    return { record, lease };
  } catch (e) {
    await lease.release();
    throw e;
  }
}
