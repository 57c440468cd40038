import { CliError } from '../exit-codes.js';

export interface ChatCommandOptions {
  resume?: string;
  model?: string;
  agents?: string;
  agent?: string;
}

export async function chatCommand(_opts: ChatCommandOptions): Promise<number> {
  throw new CliError('the interactive REPL is not wired yet');
}
