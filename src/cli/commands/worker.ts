import { secretsFromEnv } from '../../core/store/redact.js';
import { loadQueueKey } from '../../serve/queue/queue-key.js';
import { startTurnWorker } from '../../serve/queue/turn-worker.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { untilStopSignal } from '../signals.js';
import { configSecretValues } from '../secrets.js';
import { sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam } from '../team.js';
import { budgetLimits, dailyLimits, type BudgetFlags } from '../unattended.js';

export interface WorkerCommandOptions extends BudgetFlags {
  model?: string;
  concurrency?: string;
}

/**
 * `adk worker`: runs the turns `adk serve` queues on Redis until SIGINT/SIGTERM; the turns it is
 * running then stop at a safe point and are saved (resumable), as `adk serve` does with its own.
 */
export async function workerCommand(opts: WorkerCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const concurrency = opts.concurrency === undefined ? 1 : Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a whole number of at least 1, not '${opts.concurrency}'`);
  // Each turn's caps, for every turn this worker runs.
  const budget = budgetLimits(opts);
  // A day's caps are the queue's: every worker on it shares them.
  const dailyBudget = dailyLimits(opts, 'queue');
  const stores = await openStores(env);
  if (stores.kv.kind !== 'redis') {
    await stores.close();
    throw new CliError(`adk worker runs turns queued on Redis: set ADK_STORE=redis://host:6379 (the store is ${stores.kv.describe()})`, ExitCode.usage);
  }
  const lockMs = Number(env.ADK_WORKER_LOCK_MS) > 0 ? Number(env.ADK_WORKER_LOCK_MS) : undefined;
  let worker;
  try {
    // The key serve signs jobs with: from ADK_QUEUE_KEY, or the file under ADK_HOME that serve shares.
    const queueKey = loadQueueKey(env);
    worker = await startTurnWorker({
      stores,
      redisUrl: env.ADK_STORE!.trim(),
      sessionTeam: (record) => loadTeam({ ...sessionTeamOptions(record, { model: opts.model }), env, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) }),
      queueKey,
      concurrency,
      lockMs,
      // (the queue key too, should a tool ever come across it)
      secrets: [...secretsFromEnv(env), ...configSecretValues(), queueKey.toString('utf8')],
      log: (line) => process.stderr.write(`adk worker ${process.pid}: ${line}\n`),
    });
  } catch (e) {
    await stores.close();
    throw new CliError((e as Error).message, ExitCode.usage);
  }
  process.stderr.write(`adk worker ${process.pid}: waiting for turns on ${stores.kv.describe()} (${concurrency} at a time)\n`);
  await untilStopSignal();
  process.stderr.write(`adk worker ${process.pid}: stopping; running turns stop at a safe point and are saved (Ctrl-C again to quit at once)\n`);
  await worker.close({ cancel: true });
  await stores.close();
  return ExitCode.ok;
}
