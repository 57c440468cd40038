import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { AgentMiddleware } from '../agents/middleware.js';
import { readTextFile } from '../tools/builtin/file-io.js';
import { locate, WorkspaceError } from '../tools/workspace.js';

/** File name of the workspace instructions read from the workspace root. */
export const AGENTS_MD = 'AGENTS.md';
/** All of AGENTS.md with its imports: more would crowd out the conversation. */
export const AGENTS_MD_MAX_CHARS = 64_000;
const MAX_IMPORT_DEPTH = 5;
// `@path` at the start of a line or after a space, as Claude Code reads CLAUDE.md: `@docs/style.md`.
const IMPORT = /(^|[ \t])@((?:\.{1,2}\/|\/|~\/)?[\w.\-/]+)/gm;

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT' || (e instanceof WorkspaceError && /does not exist|no such file/i.test(e.message));

/**
 * The workspace's AGENTS.md, with its `@path` imports expanded (at most 5 deep, each confined to
 * the workspace: an import that leaves it is refused in place), or undefined when there is none.
 */
export async function readAgentsMd(workspace: string): Promise<string | undefined> {
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
    text = await expand(AGENTS_MD, 0);
  } catch (e) {
    if (missing(e)) return undefined;
    text = `[${AGENTS_MD} could not be read: ${(e as Error).message}]`;
  }
  return text.length > AGENTS_MD_MAX_CHARS ? `${text.slice(0, AGENTS_MD_MAX_CHARS)}\n[${AGENTS_MD} cut at ${AGENTS_MD_MAX_CHARS} characters]` : text;
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
export function agentsMdMiddleware(workspace: string, options: { userFile?: string | undefined } = {}): AgentMiddleware {
  return {
    name: 'agents_md',
    async beforeAgent(_ctx, setup) {
      const sections: string[] = [];
      // The person's own memory (ADK_HOME/AGENTS.md, what `#` adds as "user"): for every folder.
      const own = options.userFile ? await readFile(options.userFile, 'utf8').catch(() => undefined) : undefined;
      if (own?.trim()) sections.push(`# Your instructions (${options.userFile})\nThe person keeps these instructions for every folder; follow them.\n\n${own.trim().slice(0, AGENTS_MD_MAX_CHARS)}`);
      const text = await readAgentsMd(workspace);
      if (text?.trim()) sections.push(`# Project instructions (${AGENTS_MD})\nThe person keeps these instructions for this folder in ${AGENTS_MD}; follow them.\n\n${text.trim()}`);
      if (!sections.length) return;
      const section = sections.join('\n\n');
      return { ...setup, instruction: setup.instruction ? `${setup.instruction}\n\n${section}` : section };
    },
  };
}
