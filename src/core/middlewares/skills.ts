import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import * as z from 'zod';
import type { AgentMiddleware } from '../agents/middleware.js';
import type { Tool } from '../tools/tool.js';
import { readTextFile } from '../tools/builtin/file-io.js';
import { isInside, locate } from '../tools/workspace.js';

/** A skill found by findSkills: the name and description from its SKILL.md front matter. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's folder (real path). */
  dir: string;
}

export const SKILL_FILE = 'SKILL.md';
/** Name of the tool skillsMiddleware adds: it loads a skill's SKILL.md, or another file of the skill. */
export const SKILL_TOOL = 'skill';
const MAX_SKILL_CHARS = 100_000;

/** `---\nname: …\ndescription: …\n---\nbody` */
export function parseSkillFile(text: string): { name?: string; description?: string; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { body: text };
  const doc = parseDocument(m[1]);
  const data = (doc.errors.length ? {} : doc.toJS()) as Record<string, unknown> | null;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return { name: str(data?.name), description: str(data?.description), body: text.slice(m[0].length) };
}

/**
 * Skills in `dirs` (each holding `<skill>/SKILL.md`; earlier folders win a name): folders whose
 * SKILL.md has a name and a description in its front matter. Unreadable ones are skipped. A folder
 * below `workspace` counts only while its real path stays there (a cloned repository's `.adk -> /`).
 */
export async function findSkills(dirs: readonly string[], workspace?: string): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  for (const dir of dirs) {
    if (workspace && isInside(workspace, path.resolve(dir)) && !isInside(workspace, await realpath(dir).catch(() => workspace + '/\0'))) continue;
    let entries: string[];
    try {
      entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      try {
        const loc = await locate(path.join(dir, entry), SKILL_FILE);
        const { name, description } = parseSkillFile(await readTextFile(loc, MAX_SKILL_CHARS));
        if (name && description && !found.has(name)) found.set(name, { name, description, dir: loc.root });
      } catch {
        // not a skill
      }
    }
  }
  return [...found.values()];
}

const parameters = z.object({
  name: z.string().describe('The skill to load'),
  file: z.string().optional().describe("Another file of the skill's folder to read (a path the skill names)"),
});

function skillTool(skills: readonly Skill[]): Tool<z.infer<typeof parameters>> {
  return {
    name: SKILL_TOOL,
    readOnly: true,
    description: 'Load a skill: its instructions (SKILL.md), or another file of its folder. Load a skill before doing work it describes.',
    parameters,
    async execute({ name, file }) {
      const skill = skills.find((s) => s.name === name);
      if (!skill) return { content: `Error: no skill named '${name}'. Skills: ${skills.map((s) => s.name).join(', ') || 'none'}.`, isError: true };
      // The skill's own folder is the only place it reads from: `../` or a link out is refused.
      const loc = await locate(skill.dir, file ?? SKILL_FILE);
      const text = await readTextFile(loc, MAX_SKILL_CHARS);
      if (file) return text;
      const others = (await readdir(skill.dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => path.relative(skill.dir, path.join((e as { parentPath?: string; path?: string }).parentPath ?? (e as { path?: string }).path ?? skill.dir, e.name)))
        .filter((f) => f !== SKILL_FILE)
        .sort();
      const list = others.length ? `\n\n[other files of this skill, read with ${SKILL_TOOL} {"name":"${name}","file":…}: ${others.slice(0, 50).join(', ')}]` : '';
      return parseSkillFile(text).body.trim() + list;
    },
  };
}

/**
 * Skills (Eino's skill middleware, Claude Code's skills): the agent's instruction lists each skill
 * by name and description, and the `skill` tool loads one's instructions when the work needs them.
 */
export function skillsMiddleware(dirs: readonly string[], workspace?: string): AgentMiddleware {
  return {
    name: 'skills',
    async beforeAgent(_ctx, setup) {
      const skills = await findSkills(dirs, workspace);
      if (!skills.length || setup.tools.some((t) => t.name === SKILL_TOOL)) return;
      const section = `# Skills\nLoad a skill with the ${SKILL_TOOL} tool before doing work it covers:\n${skills.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`;
      return { instruction: setup.instruction ? `${setup.instruction}\n\n${section}` : section, tools: [...setup.tools, skillTool(skills)] };
    },
  };
}
