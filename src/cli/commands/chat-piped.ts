import { CliError, ExitCode } from '../exit-codes.js';
import { readStdin } from '../stdin.js';
import type { ChatCommandOptions } from './chat-options.js';

/**
 * `echo hi | adk chat`: stdin is not a terminal, so no REPL can read keys. As gemini-cli does, the
 * piped text is a one-shot prompt answered headlessly (what `adk run -` does); nothing piped is a
 * usage error naming `adk run`. Stdout being a terminal or not does not matter here.
 */
export async function pipedChat(opts: ChatCommandOptions): Promise<number> {
  const prompt = await readStdin();
  if (!prompt.trim()) {
    throw new CliError('adk chat needs an interactive terminal, or a prompt piped on stdin (`echo "hi" | adk chat`); for scripts use `adk run "<prompt>"`.', ExitCode.usage);
  }
  const { runCommand } = await import('./run.js');
  // run.ts reads stdin for `-`: hand it the text we already read instead.
  return runCommand([prompt], { model: opts.model, agents: opts.agents, agent: opts.agent, fallback: opts.fallback });
}
