import type { Tool, ToolContext } from '../../core/tools/tool.js';
import { sanitizeText } from '../../ui/text/sanitize.js';

/**
 * A command file's `` !`cmd` ``: as in Claude Code, a shell command run when the command is invoked,
 * before anything is sent, its output taking its place in the prompt. In adk each one is approved by
 * the person first (or by a rule, as a shell call would be) and runs through the team's shell tool:
 * the same sandbox, environment allow-list and output cap as the model's calls.
 */
const BANG = /!`([^`\n]+)`/g;

/** The commands of a command's expanded text, in order (a repeated one runs once per place). */
export function bangCommands(text: string): string[] {
  return [...text.matchAll(BANG)].map((m) => m[1]!.trim()).filter(Boolean);
}

/** The text with each `` !`cmd` `` replaced by `replace(i)`, in the order bangCommands gave them. */
export function replaceBangs(text: string, replace: (i: number) => string): string {
  let i = 0;
  return text.replace(BANG, (whole, cmd: string) => (cmd.trim() ? replace(i++) : whole));
}

/** Characters of one command's output put in the prompt (the shell tool caps its own output too). */
export const BANG_OUTPUT_MAX_CHARS = 30_000;

/** A command's output as the model gets it: control characters made visible, capped, a failure said. */
export function bangOutputText(content: string): string {
  // The shell tool ends its result with the exit code: a success needs no line of its own.
  const text = sanitizeText(content.replace(/\nexit code: 0$/, '').replace(/\n+$/, ''));
  if (text.length <= BANG_OUTPUT_MAX_CHARS) return text;
  return `${text.slice(0, BANG_OUTPUT_MAX_CHARS)}\n[output truncated: the first ${BANG_OUTPUT_MAX_CHARS} of ${text.length} characters]`;
}

/** Runs one approved command with the team's shell tool, outside any run (nothing of a run is needed). */
export async function runBang(shell: Tool, command: string, callId: string, signal: AbortSignal): Promise<{ content: string; isError: boolean }> {
  const ctx: ToolContext = {
    signal,
    callId,
    agentName: 'you',
    runPath: [],
    sessionValues: {},
    options: {},
    resume: { wasInterrupted: false, isResumeTarget: false, hasData: false },
    interrupt: () => {
      throw new Error('a command of a command file cannot ask anything');
    },
    sendAction: () => {},
    emit: () => {},
  };
  const r = await shell.execute({ command }, ctx);
  return typeof r === 'string' ? { content: r, isError: false } : { content: r.content, isError: r.isError === true };
}
