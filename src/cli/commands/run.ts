import { Conversation } from '../conversation.js';
import { CliError } from '../exit-codes.js';
import { runHeadless } from '../headless.js';
import { promptFromArgs } from '../stdin.js';
import { lockedNewId, lockedSession, sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam } from '../team.js';

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
    // The lease comes first: what is read next is what this process alone will change.
    const held = opts.session ? await lockedSession(stores, opts.session) : undefined;
    const lease = held?.lease ?? (await lockedNewId(stores)).lease;
    try {
      const existing = held?.record;
      if (existing?.status === 'interrupted') {
        throw new CliError(`session ${existing.id} is waiting on ${existing.pendingInterrupts.length} interrupt(s); answer with \`adk resume ${existing.id}\``);
      }
      const team = await loadTeam(
        existing
          ? { ...sessionTeamOptions(existing, { model: opts.model, agentsFile: opts.agents }), agentName: opts.agent ?? existing.rootAgent }
          : { model: opts.model, agentsFile: opts.agents, agentName: opts.agent },
      );
      try {
        const conv = existing ? Conversation.open(stores, team, existing, lease) : await Conversation.create(stores, team, lease);
        return await runHeadless(conv, (signal) => conv.startTurn(prompt, signal), opts);
      } finally {
        await team.close();
      }
    } finally {
      await lease.release();
    }
  } finally {
    await stores.close();
  }
}
