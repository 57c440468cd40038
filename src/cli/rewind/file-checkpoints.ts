import { execFileSync } from 'node:child_process';
import { hostGitEnv } from '../git/host-git-env.js';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, parse } from 'node:path';
import { defaultAdkHome, type SessionRecord } from '../../core/store/index.js';
import type { FileCheckpoint } from '../../core/store/session-record.js';
import { realPathOrSelf } from '../paths.js';
import { ShadowGit, SnapshotRefused, type Snapshot, type TreeEntry } from './shadow-git.js';

/** One file a code rewind changes: written back, deleted (made after), or made again (deleted after). */
export interface RewindFile {
  path: string;
  change: 'restore' | 'delete' | 'create';
}

/** What restoring the code to before a message does, computed just now. */
export interface CodeRewindPlan {
  files: RewindFile[];
  target: Map<string, TreeEntry>;
}

/** The session a checkpoint belongs to: its id, its workspace and its record (where the anchors live). */
export interface CheckpointedSession {
  id: string;
  record: SessionRecord;
}

/** Oversized files named in an anchor at most (the rest are simply not restored or deleted). */
const BIG_LISTED = 50;

/**
 * The REPL's file checkpoints: before each turn a snapshot of the workspace's files (in a shadow
 * repository under ADK_HOME/checkpoints/<session>, its objects shared by the workspace's sessions
 * under ADK_HOME/checkpoints/objects/), after its runs another; the anchors (the turn's
 * message and its snapshots) live in the session record, so they survive `adk resume`. Restoring
 * the code to before a message writes back only the files the turns since changed.
 */
export class FileCheckpoints {
  /** One git at a time per process: snapshots share the shadow index. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Workspaces found too large, with why. */
  private readonly refused = new Map<string, string>();
  private gitMissing: boolean | undefined;

  constructor(private readonly home: string = defaultAdkHome()) {}

  /** Why files are not checkpointed in `workspace` (undefined: they are). */
  offReason(workspace: string): string | undefined {
    const ws = realPathOrSelf(workspace);
    if (ws === parse(ws).root) return 'the workspace is the root folder';
    if (ws === realPathOrSelf(homedir())) return 'the workspace is your home folder';
    if (this.gitMissing ??= !hasGit()) return 'git is not installed';
    const refused = this.refused.get(ws);
    return refused ? `the workspace is too large: ${refused}` : undefined;
  }

  dir(sessionId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId) || sessionId === 'objects') throw new Error(`no file checkpoints for a session named ${JSON.stringify(sessionId)}`);
    return join(this.home, 'checkpoints', sessionId);
  }

  /** The session's shadow repository; file contents are stored once per workspace (objects/<hash of its path>). */
  private repo(s: CheckpointedSession): ShadowGit {
    const ws = workspaceOf(s.record);
    const key = createHash('sha256').update(realPathOrSelf(ws)).digest('hex').slice(0, 16);
    return new ShadowGit(this.dir(s.id), ws, join(this.home, 'checkpoints', 'objects', key));
  }

  /** Resolves once the snapshots asked for so far are taken. */
  idle(): Promise<void> {
    return this.queue.then(() => {});
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** A snapshot of the workspace, or undefined when checkpoints are off there (or git failed: a turn never waits on it). */
  snapshot(s: CheckpointedSession): Promise<Snapshot | undefined> {
    const ws = workspaceOf(s.record);
    if (this.offReason(ws) || !/^[A-Za-z0-9_-]+$/.test(s.id)) return Promise.resolve(undefined);
    return this.serial(async () => {
      try {
        return await this.repo(s).snapshot();
      } catch (e) {
        if (e instanceof SnapshotRefused) this.refused.set(realPathOrSelf(ws), e.message);
        return undefined;
      }
    });
  }

  /** The turn that starts with message `message` had its files at `before`. Saved with the session's next save. */
  anchor(s: CheckpointedSession, message: number, before: Snapshot | undefined): void {
    if (!before) return;
    const anchor: FileCheckpoint = { message, before: before.tree };
    if (before.big.length) anchor.big = before.big.slice(0, BIG_LISTED);
    const list = (s.record.fileCheckpoints ??= []);
    while (list.length && list[list.length - 1]!.message >= message) list.pop();
    list.push(anchor);
  }

  /** After a run of the latest turn: where its files stand now. True when the anchor changed (the session needs a save). */
  async after(s: CheckpointedSession): Promise<boolean> {
    const last = s.record.fileCheckpoints?.at(-1);
    if (!last) return false;
    const now = await this.snapshot(s);
    if (!now || now.tree === last.after) return false;
    last.after = now.tree;
    return true;
  }

  /** The messages that have a checkpoint at or after them: `message` → the anchor restoring goes back to. */
  anchorFor(record: SessionRecord, message: number): FileCheckpoint | undefined {
    return record.fileCheckpoints?.find((c) => c.message >= message);
  }

  /**
   * The files restoring the code to before message `message` would change: those the turns since
   * changed whose content now differs from then. Undefined when no checkpoint covers the message.
   */
  async plan(s: CheckpointedSession, message: number): Promise<CodeRewindPlan | undefined> {
    const anchors = (s.record.fileCheckpoints ?? []).filter((c) => c.message >= message);
    const first = anchors[0];
    if (!first) return undefined;
    const now = await this.snapshot(s);
    if (!now) return undefined;
    const repo = this.repo(s);
    return this.serial(async () => {
      const touched = new Set<string>();
      for (const [i, a] of anchors.entries()) {
        const end = a.after ?? anchors[i + 1]?.before ?? now.tree;
        for (const p of await repo.changed(a.before, end)) touched.add(p);
        // Between this turn's end and the next one's start the person worked: not the tools' doing.
      }
      const target = await repo.entries(first.before);
      const current = await repo.entries(now.tree);
      const files: RewindFile[] = [];
      for (const path of [...touched].sort()) {
        const t = target.get(path);
        const n = current.get(path);
        if (t && n && t.blob === n.blob && t.mode === n.mode) continue;
        if (!t && !n) continue;
        if (!t && first.big?.includes(path)) continue;
        files.push({ path, change: !t ? 'delete' : !n ? 'create' : 'restore' });
      }
      return { files, target };
    });
  }

  /** Writes the plan's files back (deleting those made since). */
  restore(s: CheckpointedSession, plan: CodeRewindPlan): Promise<void> {
    const repo = this.repo(s);
    return this.serial(() => repo.restore(plan.target, plan.files.map((f) => f.path)));
  }

  /** A forked session gets a copy of the shadow repository its anchors point into. */
  fork(fromId: string, toId: string): Promise<void> {
    return this.serial(() => ShadowGit.copy(this.dir(fromId), this.dir(toId)).catch(() => {}));
  }

  /** A session's snapshots, when the session is deleted. */
  async remove(sessionId: string): Promise<void> {
    await rm(this.dir(sessionId), { recursive: true, force: true }).catch(() => {});
  }
}

function workspaceOf(record: SessionRecord): string {
  return record.workspace ?? process.cwd();
}

function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore', env: hostGitEnv(process.cwd()) });
    return true;
  } catch {
    return false;
  }
}

/** `M src/a.ts`, `D notes.md` (made since: deleted), `A b.ts` (deleted since: made again). */
export function describeRewindFiles(files: readonly RewindFile[]): string[] {
  return files.map((f) => `${f.change === 'delete' ? 'D' : f.change === 'create' ? 'A' : 'M'} ${f.path}`);
}

/** A run's events, then `after` (the run's file snapshot) once they end, however they end (its errors are not the run's). */
export async function* withAfterRun<T>(events: AsyncIterable<T>, after: () => Promise<void>): AsyncIterable<T> {
  try {
    yield* events;
  } finally {
    await after().catch(() => {});
  }
}
