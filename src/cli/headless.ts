import type { AgentEvent } from '../core/index.js';
import type { Conversation } from './conversation.js';
import { drainRun, type RunStatus } from './event-sink.js';
import { ExitCode } from './exit-codes.js';
import { JsonlSink } from './jsonl-sink.js';
import { abortOnSignals } from './signals.js';
import { TextSink } from './text-sink.js';

const STATUS_EXIT: Record<RunStatus, number> = {
  completed: ExitCode.ok,
  error: ExitCode.runtimeError,
  interrupted: ExitCode.interrupted,
  cancelled: ExitCode.cancelled,
};

const write = (s: string) => void process.stdout.write(s);
const writeErr = (s: string) => void process.stderr.write(s);

/**
 * One headless step of a conversation (a new turn or a resume): streams it to stdout as text or
 * JSON Lines, saves the session however it ends, and returns the exit code.
 */
export async function runHeadless(
  conv: Conversation,
  start: (signal: AbortSignal) => Promise<AsyncIterable<AgentEvent>>,
  opts: { json?: boolean },
): Promise<number> {
  const json = opts.json ? new JsonlSink(write) : undefined;
  const sink = json ?? new TextSink(write, writeErr);
  if (conv.team.isDemo && !json) writeErr('adk: no OPENAI_API_KEY or OPENAI_BASE_URL set; using the offline demo model.\n');
  // A second Ctrl-C while saving exits at once; the first lets the run stop and save.
  const { signal, dispose } = abortOnSignals(() => process.exit(ExitCode.cancelled));
  try {
    json?.session(conv.id, conv.team.agent.name);
    const summary = await drainRun(await start(signal), sink, signal);
    await conv.finishTurn(summary);
    if (summary.status === 'interrupted') {
      json?.interrupted({ agent: conv.team.agent.name }, conv.record.checkpointId ?? conv.id, summary.interrupts);
      writeErr(`adk: waiting for you: answer with \`adk resume ${conv.id} --approve\` (or --reject, --input); session ${conv.id} is saved.\n`);
    }
    json?.done(summary, conv.id);
    if (summary.status === 'error' && summary.error) writeErr(`adk: ${oneLine(summary.error.message)}\n`);
    if (summary.status === 'cancelled') writeErr(`adk: cancelled; session ${conv.id} is saved (adk resume ${conv.id}).\n`);
    return STATUS_EXIT[summary.status];
  } finally {
    dispose();
  }
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
