import { Conversation } from '../conversation.js';
import { CliError } from '../exit-codes.js';
import { runHeadless } from '../headless.js';
import { promptFromArgs } from '../stdin.js';
import { openStores } from '../stores.js';
import { loadTeam, sessionModel } from '../team.js';

export interface RunCommandOptions {
  json?: boolean;
  model?: string;
  agents?: string;
  agent?: string;
  session?: string;
}

export async function runCommand(words: string[], opts: RunCommandOptions): Promise<number> {
  const prompt = await promptFromArgs(words);
  if (!prompt.trim()) throw new CliError('the prompt is empty');
  const stores = await openStores();
  try {
    const existing = opts.session ? await stores.sessions.get(await stores.sessions.resolveId(opts.session)) : undefined;
    if (existing?.status === 'interrupted') {
      throw new CliError(`session ${existing.id} is waiting on ${existing.pendingInterrupts.length} interrupt(s); answer with \`adk resume ${existing.id}\``);
    }
    const team = await loadTeam({
      model: opts.model ?? sessionModel(existing?.model),
      agentsFile: opts.agents ?? existing?.agentsFile,
      agentName: opts.agent ?? existing?.rootAgent,
    });
    try {
      const conv = existing ? Conversation.open(stores, team, existing) : await Conversation.create(stores, team, { agentsFile: team.agentsFile });
      return await runHeadless(conv, (signal) => conv.startTurn(prompt, signal), opts);
    } finally {
      await team.close();
    }
  } finally {
    await stores.close();
  }
}
