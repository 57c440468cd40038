import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AGENTS_MD } from '../../core/middlewares/agents-md.js';
import { defaultAdkHome } from '../../core/store/store-url.js';

/**
 * Memory as Claude Code has it: `# always use pnpm` adds a line to an AGENTS.md, the project's
 * (`./AGENTS.md`, shared with the repository) or the person's own (`ADK_HOME/AGENTS.md`, every
 * folder); `/memory` opens one in $EDITOR. Every agent reads both at its next run.
 */
export type MemoryScope = 'project' | 'user';

export function memoryFile(scope: MemoryScope, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return scope === 'project' ? join(workspace, AGENTS_MD) : join(defaultAdkHome(env), AGENTS_MD);
}

/** The two files as a picker offers them. */
export function memoryChoices(workspace: string, env: NodeJS.ProcessEnv = process.env): Array<{ value: MemoryScope; label: string; detail: string }> {
  return [
    { value: 'project', label: 'Project memory', detail: `${memoryFile('project', workspace, env)} (shared with the repository)` },
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
