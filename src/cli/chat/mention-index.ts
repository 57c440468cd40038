import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerPool } from '../../core/tools/mcp.js';
import { fuzzyRank } from '../../ui/text/fuzzy.js';
import { HOST_GIT_SAFE_ARGS, hostGitEnv } from '../git/host-git-env.js';

/** Paths the index holds at most (a huge tree must not stall a keystroke). */
const MAX_ENTRIES = 50_000;
/** How long a listing is trusted before the next search lists again (files come and go). */
const FRESH_MS = 3000;
const SKIP = new Set(['node_modules', '.git']);

interface Entry {
  /** What `@` inserts: a workspace path (folders end in `/`) or `server:uri`. */
  text: string;
  /** 0: a file or folder; 1: an MCP resource; 2: git-ignored. */
  group: number;
}

/**
 * What the live `@` picker searches (issue 32, item 5): the workspace's files and folders (from git
 * when it is a repository: tracked and untracked ones, then the ignored ones, ignored folders as one
 * entry), the team's MCP resources, ranked fuzzily as fzf does. Listed on first use and again once a
 * listing is a few seconds old, so every keystroke searches a fresh enough list without waiting.
 */
export class MentionIndex {
  private entries: Entry[] | undefined;
  private listedAt = 0;
  private resources: Entry[] = [];
  private resourcesAsked = false;
  private readonly listeners = new Set<() => void>();
  /** git's environment, made once: it resolves every PATH entry, and PATH does not change while the REPL runs. */
  private gitEnv: NodeJS.ProcessEnv | undefined;

  constructor(
    private readonly workspace: string,
    private readonly mcp?: McpServerPool | undefined,
  ) {}

  /** The best matches for what follows `@` (an empty query lists the top of the tree). */
  search(query: string, max = 50): string[] {
    this.askResources();
    if (!this.entries || Date.now() - this.listedAt > FRESH_MS) {
      this.entries = listWorkspace(this.workspace, (this.gitEnv ??= hostGitEnv(this.workspace)));
      this.listedAt = Date.now();
    }
    const all = [...this.entries, ...this.resources];
    if (!query) return [...all].sort((a, b) => a.group - b.group || depth(a.text) - depth(b.text) || (a.text < b.text ? -1 : 1)).slice(0, max).map((e) => e.text);
    return fuzzyRank(query, all, (e) => e.text, max, (e) => e.group).map((e) => e.text);
  }

  /** Told when MCP resources arrive: a picker showing an earlier search searches again (never a stale list). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** MCP resources arrive in the background (servers may be slow to start); they join later searches. */
  private askResources(): void {
    if (this.resourcesAsked || !this.mcp) return;
    this.resourcesAsked = true;
    const pool = this.mcp;
    for (const server of pool.serverNames()) {
      void pool
        .listResources(server)
        .then((list) => {
          for (const r of list) this.resources.push({ text: `${server}:${r.uri}`, group: 1 });
          if (list.length) for (const l of this.listeners) l();
        })
        .catch(() => {
          // A server without resources (or not running) adds none.
        });
    }
  }
}

const depth = (p: string) => p.replace(/\/$/, '').split('/').length;

function listWorkspace(workspace: string, env: NodeJS.ProcessEnv): Entry[] {
  return gitListing(workspace, env) ?? walk(workspace);
}

/** Files git knows (tracked and untracked), then ignored ones (an ignored folder as one entry); their folders too. */
function gitListing(workspace: string, env: NodeJS.ProcessEnv): Entry[] | undefined {
  // On the host: a repository's `core.fsmonitor` (written from the sandbox) must not run, nor a planted git.
  const git = (args: string[]) =>
    execFileSync('git', [...HOST_GIT_SAFE_ARGS, '-C', workspace, ...args], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
  let seen: string[];
  let ignored: string[];
  try {
    seen = git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean);
    ignored = git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']).split('\0').filter(Boolean);
  } catch {
    return undefined; // not a repository, or no git
  }
  const out: Entry[] = [];
  const folders = new Set<string>();
  for (const f of seen.slice(0, MAX_ENTRIES)) {
    out.push({ text: f, group: 0 });
    for (let i = f.indexOf('/'); i >= 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i + 1));
  }
  for (const d of folders) out.push({ text: d, group: 0 });
  for (const f of ignored.slice(0, MAX_ENTRIES)) if (!f.startsWith('.git/')) out.push({ text: f, group: 2 });
  return out;
}

/** Outside git: the tree, breadth first, without node_modules and .git, up to MAX_ENTRIES. */
function walk(workspace: string): Entry[] {
  const out: Entry[] = [];
  const queue = [''];
  while (queue.length && out.length < MAX_ENTRIES) {
    const dir = queue.shift()!;
    let list;
    try {
      list = readdirSync(join(workspace, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of list) {
      if (SKIP.has(e.name)) continue;
      const path = `${dir}${e.name}`;
      if (e.isDirectory()) {
        out.push({ text: `${path}/`, group: 0 });
        queue.push(`${path}/`);
      } else out.push({ text: path, group: 0 });
    }
  }
  return out;
}
