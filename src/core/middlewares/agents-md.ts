import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { AgentMiddleware } from '../agents/middleware.js';
import { readTextFile } from '../tools/builtin/file-io.js';
import { locate, WorkspaceError } from '../tools/workspace.js';

/** File name of the workspace instructions read from the workspace root. */
export const AGENTS_MD = 'AGENTS.md';
/**
 * The project instruction files read from the workspace root, in order: adk's and Codex's AGENTS.md,
 * Claude Code's CLAUDE.md and its personal, uncommitted CLAUDE.local.md (a Claude Code user's setup
 * works unchanged; both families are read when both exist).
 */
export const PROJECT_MEMORY_FILES = [AGENTS_MD, 'CLAUDE.md', 'CLAUDE.local.md'] as const;
/** All of AGENTS.md with its imports: more would crowd out the conversation. */
export const AGENTS_MD_MAX_CHARS = 64_000;
const MAX_IMPORT_DEPTH = 5;
// `@path` at the start of a line or after a space, as Claude Code reads CLAUDE.md: `@docs/style.md`.
const IMPORT = /(^|[ \t])@((?:\.{1,2}\/|\/|~\/)?[\w.\-/]+)/gm;

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT' || (e instanceof WorkspaceError && /does not exist|no such file/i.test(e.message));

/**
 * The workspace's AGENTS.md (or another instruction file at its root), with its `@path` imports
 * expanded (at most 5 deep, each confined to the workspace: an import that leaves it is refused in
 * place), or undefined when there is none.
 */
export async function readAgentsMd(workspace: string, name: string = AGENTS_MD): Promise<string | undefined> {
  const seen = new Set<string>();
  const expand = async (file: string, depth: number): Promise<string> => {
    const loc = await locate(workspace, file);
    if (seen.has(loc.real)) return `[@${loc.shown} is already included above]`;
    seen.add(loc.real);
    const text = await readTextFile(loc, AGENTS_MD_MAX_CHARS);
    const base = path.dirname(loc.shown);
    let out = '';
    let last = 0;
    for (const m of text.matchAll(IMPORT)) {
      const [whole, lead, target] = m;
      if (!/[./]/.test(target) || target.endsWith('.')) continue; // an @mention, not a path
      out += text.slice(last, m.index) + lead + (await importOne(target, base, depth, expand));
      last = m.index + whole.length;
    }
    return out + text.slice(last);
  };
  let text: string;
  try {
    text = await expand(name, 0);
  } catch (e) {
    if (missing(e)) return undefined;
    text = `[${name} could not be read: ${(e as Error).message}]`;
  }
  return text.length > AGENTS_MD_MAX_CHARS ? `${text.slice(0, AGENTS_MD_MAX_CHARS)}\n[${name} cut at ${AGENTS_MD_MAX_CHARS} characters]` : text;
}

async function importOne(target: string, base: string, depth: number, expand: (file: string, depth: number) => Promise<string>): Promise<string> {
  if (target.startsWith('/') || target.startsWith('~/')) return `[@${target} not imported: only files inside the workspace can be imported]`;
  if (depth + 1 > MAX_IMPORT_DEPTH) return `[@${target} not imported: imports nest at most ${MAX_IMPORT_DEPTH} deep]`;
  try {
    return await expand(path.join(base, target), depth + 1);
  } catch (e) {
    return `[@${target} not imported: ${missing(e) ? 'no such file' : (e as Error).message}]`;
  }
}

/**
 * AGENTS.md (Eino's agentsmd middleware, Codex's and Claude Code's project instructions): the
 * workspace's file, read afresh at each run, is added to the agent's instruction.
 */
export function agentsMdMiddleware(workspace: string, options: { userFile?: string | undefined; userFiles?: readonly string[] | undefined } = {}): AgentMiddleware {
  const userFiles = [...(options.userFile ? [options.userFile] : []), ...(options.userFiles ?? [])];
  return {
    name: 'agents_md',
    async beforeAgent(_ctx, setup) {
      const sections: string[] = [];
      // The person's own memory (ADK_HOME/AGENTS.md, what `#` adds as "user"; ~/.claude/CLAUDE.md): for every folder.
      for (const file of userFiles) {
        const own = await readFile(file, 'utf8').catch(() => undefined);
        if (own?.trim()) sections.push(`# Your instructions (${file})\nThe person keeps these instructions for every folder; follow them.\n\n${own.trim().slice(0, AGENTS_MD_MAX_CHARS)}`);
      }
      for (const name of PROJECT_MEMORY_FILES) {
        const text = await readAgentsMd(workspace, name);
        if (text?.trim()) sections.push(`# Project instructions (${name})\nThe person keeps these instructions for this folder in ${name}; follow them.\n\n${text.trim()}`);
      }
      if (!sections.length) return;
      const section = sections.join('\n\n');
      return { ...setup, instruction: setup.instruction ? `${setup.instruction}\n\n${section}` : section };
    },
  };
}
