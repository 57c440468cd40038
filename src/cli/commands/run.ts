import { randomBytes } from 'node:crypto';
import { Runner, userMessage } from '../../core/index.js';
import { drainRun, type RunStatus } from '../event-sink.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { JsonlSink } from '../jsonl-sink.js';
import { abortOnSignals, exitQuietlyOnEpipe } from '../signals.js';
import { promptFromArgs } from '../stdin.js';
import { loadTeam } from '../team.js';
import { TextSink } from '../text-sink.js';

export interface RunCommandOptions {
  json?: boolean;
  model?: string;
  agents?: string;
  agent?: string;
  session?: string;
}

const STATUS_EXIT: Record<RunStatus, number> = {
  completed: ExitCode.ok,
  error: ExitCode.runtimeError,
  interrupted: ExitCode.interrupted,
  cancelled: ExitCode.cancelled,
};

export async function runCommand(words: string[], opts: RunCommandOptions): Promise<number> {
  exitQuietlyOnEpipe();
  const prompt = await promptFromArgs(words);
  if (!prompt.trim()) throw new CliError('the prompt is empty');
  const team = await loadTeam({ model: opts.model, agentsFile: opts.agents, agentName: opts.agent });
  const sessionId = randomBytes(5).toString('hex');
  const write = (s: string) => void process.stdout.write(s);
  const writeErr = (s: string) => void process.stderr.write(s);
  const json = opts.json ? new JsonlSink(write) : undefined;
  const sink = json ?? new TextSink(write, writeErr);
  if (team.isDemo && !json) writeErr('adk: no OPENAI_API_KEY or OPENAI_BASE_URL set; using the offline demo model.\n');

  const { signal, dispose } = abortOnSignals(() => process.exit(ExitCode.cancelled));
  try {
    json?.session(sessionId, team.agent.name);
    const runner = new Runner({ agent: team.agent, enableStreaming: true });
    const summary = await drainRun(runner.run([userMessage(prompt)], { signal }), sink, signal);
    json?.done(summary, sessionId);
    if (summary.status === 'error' && summary.error) writeErr(`adk: ${oneLine(summary.error.message)}\n`);
    if (summary.status === 'cancelled' && !json) writeErr('adk: cancelled\n');
    return STATUS_EXIT[summary.status];
  } finally {
    dispose();
    await team.close();
  }
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
