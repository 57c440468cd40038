import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { defaultAdkHome } from '../../core/store/store-url.js';
import { findSkills } from '../../core/middlewares/skills.js';
import { isInside } from '../../core/tools/workspace.js';

/**
 * Custom slash commands as Claude Code has them: a Markdown file per command, the person's in
 * `ADK_HOME/commands/` and the project's in `.adk/commands/` (a subfolder makes `/folder:name`).
 * Typing `/name args` sends the file's body as the message, with `$ARGUMENTS` and `$1`, `$2`, …
 * filled in. Front matter: `description`, `argument-hint`, `allowed-tools`, `model`.
 */
export interface CustomCommand {
  /** With the slash: `/fix-issue`, `/frontend:component`. */
  name: string;
  description: string;
  argumentHint?: string | undefined;
  /** As written (`Bash(git status:*)`, `read_file`): what runs unasked during the command's turn (see command-allowed-tools). */
  allowedTools?: string[] | undefined;
  /** The model of the command's turn (a model id of the team's endpoints, as `/model` takes). */
  model?: string | undefined;
  scope: 'user' | 'project';
  file: string;
  body: string;
  /** SHA-256 of the very bytes the command was parsed from: what trusting its allowed-tools trusts (command-turn). */
  sha256: string;
  /** Front matter that is not valid YAML, at file:line:col: the command does not run (its model and grants would be lost unsaid). */
  problem?: string | undefined;
}

/** Bigger command files are skipped (a command is a prompt, not a dataset). */
const MAX_COMMAND_BYTES = 64 * 1024;

/** The commands of both folders; the person's own win a name (a cloned repository cannot replace one). */
export function findCustomCommands(workspace: string, env: NodeJS.ProcessEnv = process.env): CustomCommand[] {
  const found = new Map<string, CustomCommand>();
  for (const [scope, dir] of [['user', join(defaultAdkHome(env), 'commands')], ['project', join(workspace, '.adk', 'commands')]] as const) {
    // A project's folder counts only while its real path stays in the workspace (`.adk/commands -> /`).
    if (scope === 'project' && !insideReal(workspace, dir)) continue;
    for (const file of markdownFiles(dir)) {
      const c = readCommandFile(file, dir, scope);
      if (c && !found.has(c.name)) found.set(c.name, c);
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * One command file, read once: the bytes hashed are the bytes parsed, so a file swapped while the
 * command runs cannot have one version approved and another's allowed-tools granted. A link (which
 * may replace the file after its folder was listed), anything but a regular file, or a file past the
 * cap is not read.
 */
export function readCommandFile(file: string, dir: string, scope: 'user' | 'project'): CustomCommand | undefined {
  const bytes = readOnce(file);
  if (!bytes) return undefined;
  const text = bytes.toString('utf8');
  const rel = relative(dir, file).slice(0, -'.md'.length);
  const name = `/${rel.split(sep).join(':')}`;
  if (!/^\/[\w.:-]+$/.test(name)) return undefined;
  const { data, body, problem } = frontMatter(text, file);
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const tools = data['allowed-tools'];
  const allowedTools = Array.isArray(tools) ? tools.map(String) : typeof tools === 'string' ? splitTools(tools) : undefined;
  const firstLine = body.trim().split('\n')[0]?.slice(0, 80) ?? '';
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { name, description: str(data.description) ?? firstLine, argumentHint: str(data['argument-hint']), allowedTools, model: str(data.model), scope, file, body, sha256, ...(problem ? { problem } : {}) };
}

/** The file's bytes through one descriptor: no link followed (O_NOFOLLOW), no FIFO waited on, a regular file within the cap. */
function readOnce(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_COMMAND_BYTES) return undefined;
    // Read to the end, one byte past the cap: a file that grew since fstat is refused, not cut.
    const buf = Buffer.alloc(MAX_COMMAND_BYTES + 1);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
    }
    return n > MAX_COMMAND_BYTES ? undefined : buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** `Bash(git add:*), Read` → its entries; a comma inside parentheses belongs to its pattern. */
export function splitTools(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ',' || ch === '\n') && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter(Boolean);
}

function frontMatter(text: string, file: string): { data: Record<string, unknown>; body: string; problem?: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { data: {}, body: text };
  const doc = parseDocument(m[1]!);
  const body = text.slice(m[0].length);
  const error = doc.errors[0];
  if (error) {
    // The front matter starts on the file's second line.
    const at = error.linePos?.[0];
    return { data: {}, body, problem: `${file}:${(at?.line ?? 1) + 1}:${at?.col ?? 1}: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}` };
  }
  const js: unknown = doc.toJS();
  return { data: js && typeof js === 'object' && !Array.isArray(js) ? (js as Record<string, unknown>) : {}, body };
}

function markdownFiles(dir: string, depth = 0): string[] {
  if (depth > 3) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? markdownFiles(join(dir, e.name), depth + 1) : e.isFile() && e.name.endsWith('.md') ? [join(dir, e.name)] : []));
}

function insideReal(workspace: string, dir: string): boolean {
  try {
    return isInside(realpathSync(workspace), realpathSync(dir));
  } catch {
    return false;
  }
}

/**
 * The message a command sends: its body with `$ARGUMENTS` (all of them) and `$1`…`$9` (split on
 * spaces) filled in. `` !`cmd` `` stays: the REPL runs each one, once approved, before the message
 * is sent, and puts its output in its place (command-turn.ts). `@file` references are attached as
 * the REPL's `@path` mentions are (by the host, after this).
 */
export function expandCustomCommand(c: CustomCommand, args: string): string {
  const positional = args.trim() ? args.trim().split(/\s+/) : [];
  // One pass: the arguments' own text (`$1`, `$&`) is never read as a placeholder.
  return c.body.replace(/\$(ARGUMENTS|[1-9])/g, (_, p: string) => (p === 'ARGUMENTS' ? args.trim() : (positional[Number(p) - 1] ?? ''))).trim();
}

/** `/name rest` → the command it names (custom or skill) and its arguments; undefined when it is neither. */
export function matchCustomCommand<C extends { name: string }>(text: string, commands: readonly C[]): { command: C; args: string } | undefined {
  const m = /^(\/[\w.:-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const command = m ? commands.find((c) => c.name === m[1]) : undefined;
  return command ? { command, args: m![2] ?? '' } : undefined;
}

/** A skill as a command: `/name args` asks the model to use it. */
export interface SkillCommand {
  name: string;
  description: string;
  skill: string;
}

/** The skills of ADK_HOME/skills and .adk/skills as `/skill-name` commands. */
export async function skillCommands(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<SkillCommand[]> {
  const skills = await findSkills([join(defaultAdkHome(env), 'skills'), join(workspace, '.adk', 'skills')], workspace).catch(() => []);
  return skills.filter((s) => /^[\w.-]+$/.test(s.name)).map((s) => ({ name: `/${s.name}`, description: `${s.description} (skill)`, skill: s.name }));
}

export function expandSkillCommand(c: SkillCommand, args: string): string {
  return `Use the "${c.skill}" skill (load it with the skill tool)${args.trim() ? ` for: ${args.trim()}` : '.'}`;
}

/** A command's row in `/help` and the completion list: the description, its argument hint, where it is from. */
export function commandInfo(c: CustomCommand): { name: string; description: string; message: true } {
  const hint = c.argumentHint ? ` ${c.argumentHint}` : '';
  return { name: c.name, description: `${c.description}${hint ? ` ·${hint}` : ''} (${c.scope})`, message: true };
}
