import type { SlashCommandInfo } from '../../ui/input/slash-commands.js';
import { DEFAULT_SLASH_COMMANDS } from '../../ui/input/slash-commands.js';
import { commandInfo, expandCustomCommand, expandSkillCommand, findCustomCommands, matchCustomCommand, skillCommands, type CustomCommand } from './custom-commands.js';

/** The built-in commands' names: a command file or a skill never shadows one. */
const BUILT_IN = new Set(DEFAULT_SLASH_COMMANDS.map((c) => c.name));

/** `/name args` naming a command file (never a built-in), with its arguments; undefined otherwise. */
export function customCommandInvocation(text: string, workspace: string): { command: CustomCommand; args: string } | undefined {
  if (!text.startsWith('/')) return undefined;
  return matchCustomCommand(text, findCustomCommands(workspace).filter((c) => !BUILT_IN.has(c.name)));
}

/**
 * What the REPL's command list starts with, read at once (a command typed right away must be
 * known): the built-ins (`/init` as the model's when it can) and the custom commands.
 */
export function startCommandInfos(workspace: string, team: InitTeam): SlashCommandInfo[] {
  return [...withModelInit(DEFAULT_SLASH_COMMANDS, team), ...findCustomCommands(workspace).filter((c) => !BUILT_IN.has(c.name)).map(commandInfo)];
}

/** The skills as commands (read later: finding them is asynchronous), leaving out names already taken. */
export async function skillCommandInfos(workspace: string, taken: readonly SlashCommandInfo[]): Promise<SlashCommandInfo[]> {
  const names = new Set(taken.map((c) => c.name));
  return (await skillCommands(workspace)).filter((s) => !names.has(s.name)).map((s) => ({ name: s.name, description: s.description, message: true }));
}

/** What `/name args` sends when it names a custom command or a skill (or `/init`, done by the model); undefined otherwise. */
export async function expandLocalCommand(text: string, workspace: string, team?: InitTeam): Promise<string | undefined> {
  if (!text.startsWith('/')) return undefined;
  const init = /^\/init(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (init && team && initsWithModel(team)) return initPrompt(init[1]?.trim() ?? '');
  const custom = matchCustomCommand(text, findCustomCommands(workspace).filter((c) => !BUILT_IN.has(c.name)));
  if (custom) return expandCustomCommand(custom.command, custom.args);
  const skill = matchCustomCommand(text, (await skillCommands(workspace)).filter((s) => !BUILT_IN.has(s.name)));
  return skill ? expandSkillCommand(skill.command, skill.args) : undefined;
}

/** What `/init` needs of the team to have the model write AGENTS.md (else the starter file is written). */
export interface InitTeam {
  toolNames: readonly string[];
  isDemo: boolean;
}

/** `/init` is the model's when it can explore (list_dir, read_file) and write (write_file, which asks). */
export function initsWithModel(team: InitTeam): boolean {
  return !team.isDemo && ['list_dir', 'read_file', 'write_file'].every((t) => team.toolNames.includes(t));
}

/**
 * `/init` as Claude Code does it: the model reads the codebase (read-only tools first), then writes
 * AGENTS.md with write_file, which the person approves (and sees as a diff) like any write.
 */
export function initPrompt(extra: string): string {
  return [
    'Write AGENTS.md for this repository: the instructions coding agents read before they work here.',
    '',
    '1. Explore first, read-only: use list_dir, read_file and grep only (no shell commands, no edits). Read the README, the build and test setup (package.json, Makefile, pyproject.toml, Cargo.toml, go.mod, CI files), the main source folders and a few central files.',
    '2. Then write AGENTS.md at the workspace root with write_file (the person approves it). If AGENTS.md exists, read it and improve it, keeping what the person wrote.',
    '',
    'Cover, concretely and in under 100 lines: what the project is (one paragraph); the layout (main folders and what they hold); the exact commands to build, test, lint and run; the conventions you saw (language, style, module structure, how tests are written); what a newcomer would trip over. No generic advice.',
    ...(extra ? ['', `The person adds: ${extra}`] : []),
  ].join('\n');
}

/** The built-in list with `/init` as the model's (a message the host expands) when the team can do it. */
export function withModelInit(commands: readonly SlashCommandInfo[], team: InitTeam): SlashCommandInfo[] {
  if (!initsWithModel(team)) return [...commands];
  return commands.map((c) => (c.name === '/init' ? { name: '/init', description: 'the model reads the codebase and writes AGENTS.md (you approve the write)', message: true } : c));
}
