import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENTS_MD, PROJECT_MEMORY_FILES } from '../../core/middlewares/agents-md.js';
import { defaultAdkHome } from '../../core/store/store-url.js';

/**
 * Memory as Claude Code has it: `# always use pnpm` adds a line to an AGENTS.md, the project's
 * (`./AGENTS.md`, shared with the repository) or the person's own (`ADK_HOME/AGENTS.md`, every
 * folder); `/memory` opens one in $EDITOR. Every agent reads both at its next run.
 */
export type MemoryScope = 'project' | 'user';

/** The project's memory is its AGENTS.md, or a Claude Code user's CLAUDE.md when that is the one the folder has. */
export function memoryFile(scope: MemoryScope, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  if (scope === 'user') return join(defaultAdkHome(env), AGENTS_MD);
  const claude = join(workspace, 'CLAUDE.md');
  return !existsSync(join(workspace, AGENTS_MD)) && existsSync(claude) ? claude : join(workspace, AGENTS_MD);
}

/** The folder's other instruction files every agent also reads (said once, beside the one `#` writes to). */
function otherProjectFiles(workspace: string, env: NodeJS.ProcessEnv): string[] {
  const main = memoryFile('project', workspace, env);
  return PROJECT_MEMORY_FILES.map((n) => join(workspace, n)).filter((f) => f !== main && existsSync(f));
}

/** The two files as a picker offers them. */
export function memoryChoices(workspace: string, env: NodeJS.ProcessEnv = process.env): Array<{ value: MemoryScope; label: string; detail: string }> {
  return [
    {
      value: 'project',
      label: 'Project memory',
      detail: `${memoryFile('project', workspace, env)} (shared with the repository)${otherProjectFiles(workspace, env).length ? `; also read: ${otherProjectFiles(workspace, env).join(', ')}` : ''}`,
    },
    { value: 'user', label: 'User memory', detail: `${memoryFile('user', workspace, env)} (yours, every folder)` },
  ];
}

/** Appends `- line` to the file (made if missing, a newline added before when the file lacks one). Returns the file. */
export function addMemory(line: string, scope: MemoryScope, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = memoryFile(scope, workspace, env);
  const text = line.replace(/\s*\n\s*/g, ' ').trim();
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    mkdirSync(dirname(file), { recursive: true });
  }
  appendFileSync(file, `${before && !before.endsWith('\n') ? '\n' : ''}- ${text}\n`);
  return file;
}

/** `/memory`: the file's text for the editor, and how to save what comes back. */
export function readMemory(scope: MemoryScope, workspace: string, env: NodeJS.ProcessEnv = process.env): { file: string; text: string; save(text: string): void } {
  const file = memoryFile(scope, workspace, env);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    /* a new file */
  }
  return {
    file,
    text,
    save: (next) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, next);
    },
  };
}
