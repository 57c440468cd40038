import { CliError, ExitCode } from '../exit-codes.js';
import { openStores } from '../stores.js';
import { loadTeam, sessionModel, wantsDemo, type TeamOptions } from '../team.js';

export interface ChatCommandOptions {
  resume?: string;
  model?: string;
  agents?: string;
  agent?: string;
}

/** `adk chat` and interactive `adk resume <id>`: the Ink REPL. */
export async function chatCommand(opts: ChatCommandOptions): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new CliError('adk chat needs an interactive terminal; for scripts use `adk run` (or `adk resume <id> --json`).');
  }
  const stores = await openStores();
  try {
    const record = opts.resume ? await stores.sessions.get(await stores.sessions.resolveId(opts.resume)) : undefined;
    if (opts.resume && !record) throw new CliError(`session ${opts.resume} does not exist`);
    const teamOptions: TeamOptions = { model: opts.model, agentsFile: opts.agents, agentName: opts.agent };
    const team = await loadTeam({
      ...teamOptions,
      model: opts.model ?? sessionModel(record?.model),
      agentsFile: opts.agents ?? record?.agentsFile,
      agentName: opts.agent ?? record?.rootAgent,
    });
    const { startRepl } = await importInkInteractive(() => import('../chat/start-repl.js'));
    const demoNote = team.isDemo && wantsDemo(teamOptions)
      ? 'No model configured: offline demo team. Set OPENAI_API_KEY or OPENAI_BASE_URL (e.g. Ollama), or --model.'
      : undefined;
    return await startRepl({ stores, team, record, teamOptions, demoNote });
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError((e as Error).message, ExitCode.runtimeError);
  } finally {
    await stores.close();
  }
}

/**
 * Ink renders only a final frame when CI or CONTINUOUS_INTEGRATION is set (it decides when first
 * imported). We already know both ends are a terminal, so load it as interactive and put the
 * variables back for the commands the agents run.
 */
async function importInkInteractive<T>(load: () => Promise<T>): Promise<T> {
  const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  try {
    return await load();
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  }
}
