import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { agentForest } from '../../core/config/index.js';
import { secretsFromEnv } from '../../core/store/redact.js';
import { SessionHub } from '../../serve/session-hub.js';
import { QueuedHub } from '../../serve/queue/queued-hub.js';
import type { ServedHub } from '../../serve/served-session.js';
import { startServer } from '../../serve/server.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { untilStopSignal } from '../signals.js';
import { configSecretValues } from '../secrets.js';
import { sessionTeamOptions } from '../session-access.js';
import { openStores } from '../stores.js';
import { loadTeam, loadTeamConfig } from '../team.js';
import { packageVersion } from '../version.js';
import { serveToken } from '../serve-token.js';
import { budgetLimits, dailyLimits, type BudgetFlags } from '../unattended.js';

export interface ServeCommandOptions extends BudgetFlags {
  agents?: string;
  agent?: string;
  model?: string;
  host?: string;
  port?: string;
  /** Browser origins allowed to call the API (`--cors`, repeatable). */
  cors?: string[] | string;
  /** `narrow`: a client's session policy may only narrow what runs. */
  clientPolicy?: string;
  /** The root agent DeerFlow's front end talks to (default `research`). */
  deerflowAgent?: string;
  /** With a Redis store: run turns here rather than queue them for `adk worker`. */
  inProcess?: boolean;
  /** A Unix socket path instead of host and port. */
  socket?: string;
  /** commander's `--no-token`: false when given. */
  token?: boolean;
  /** `--a2a`: serve every root agent over A2A (agent cards, JSON-RPC). */
  a2a?: boolean;
  /** `--deerflow2`: DeerFlow 2's gateway paths under /api, with its sign-in. */
  deerflow2?: boolean;
}

/** The page built by `vite build` (dist/web), beside the CLI bundle (dist/adk). */
const WEB_ROOT = fileURLToPath(new URL('../web/', import.meta.url));

/** How long after starting a queued server looks for workers. */
const WORKER_CHECK_DELAY_MS = 3000;

/** Default port of `adk serve`. */
export const DEFAULT_SERVE_PORT = 8321;

/** `adk serve`: the HTTP + SSE API until SIGINT/SIGTERM; running turns stop at a safe point and are saved first. */
export async function serveCommand(opts: ServeCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const host = opts.host ?? '127.0.0.1';
  const noToken = opts.token === false;
  if (noToken && opts.socket) throw new CliError('--socket needs no token already: leave out --no-token');
  const corsOrigins = [opts.cors ?? []].flat().map((o) => o.trim()).filter(Boolean);
  if (noToken && corsOrigins.length) throw new CliError('--cors with --no-token would let that web site drive this server with nobody’s credentials: drop --no-token');
  // `null` is the origin of sandboxed frames, files and data: URLs: any page can make one.
  if (corsOrigins.some((o) => o.toLowerCase() === 'null')) throw new CliError("--cors null would let any sandboxed page or local file call this server: name the page's real origin (https://host:port)");
  const port = opts.port === undefined ? DEFAULT_SERVE_PORT : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a port number (0-65535), not '${opts.port}'`);
  // Each turn's caps, for the sessions this server runs itself (queued turns take their worker's `--max-…` flags).
  const budget = budgetLimits(opts);
  const auth = noToken || opts.socket ? undefined : serveToken(env);
  // A day's caps are this token's: another server with another token keeps its own (named by a
  // fingerprint, never the token).
  const dailyBudget = dailyLimits(opts, auth ? `serve token ${createHash('sha256').update(auth.token).digest('hex').slice(0, 12)}` : 'serve');
  // The file is read, validated and trusted once up front: a bad or untrusted file fails here, not on the first request.
  const { config } = await loadTeamConfig({ agentsFile: opts.agents, agentName: opts.agent, env });
  const first = await loadTeam({ agentsFile: opts.agents, agentName: opts.agent, model: opts.model, env });
  await first.close();
  const stores = await openStores(env);
  const newTeam = (agent?: string) => loadTeam({ agentsFile: opts.agents, agentName: agent ?? opts.agent, model: opts.model, env, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) });
  const redisUrl = stores.kv.kind === 'redis' && !opts.inProcess ? env.ADK_STORE?.trim() : undefined;
  let hub: ServedHub;
  try {
    hub = redisUrl
      ? await QueuedHub.open({ stores, redisUrl, newTeam, log: (line) => process.stderr.write(`adk serve: ${line}\n`) })
      : new SessionHub({ stores, newTeam, sessionTeam: (record) => loadTeam({ ...sessionTeamOptions(record, { model: opts.model }), env, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) }) });
  } catch (e) {
    await stores.close();
    throw new CliError((e as Error).message, ExitCode.usage);
  }
  let server;
  try {
    server = await startServer(
      {
        hub,
        agents: () => ({ default: first.rootName, teams: agentForest(config) }),
        token: auth?.token,
        unauthenticated: opts.socket ? 'socket' : noToken ? 'opt-out' : undefined,
        corsOrigins,
        clientPolicy: clientPolicy(opts.clientPolicy),
        secrets: [...secretsFromEnv(env), ...configSecretValues(), ...(auth ? [auth.token] : [])],
        version: packageVersion(),
        webRoot: WEB_ROOT,
        // DeerFlow's front end talks to the research team when the file has one.
        a2a: opts.a2a ? { version: packageVersion(), agents: [...config.agents.entries()].sort(([a], [b]) => Number(b === first.rootName) - Number(a === first.rootName)).map(([name, a]) => ({ name, description: a.description ?? '' })) } : undefined,
        deerflow: config.agents.has(opts.deerflowAgent ?? 'research') ? { agent: opts.deerflowAgent ?? 'research', models: [first.modelName] } : undefined,
        deerflow2: opts.deerflow2 ? { models: [first.modelName] } : undefined,
      },
      opts.socket ? { socket: opts.socket } : { host, port },
    );
  } catch (e) {
    await hub.close();
    await stores.close();
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new CliError(`port ${port} on ${host} is already in use (another adk serve?): stop it, or pick another with --port`, ExitCode.usage);
    throw new CliError(err.message, ExitCode.usage);
  }
  process.stderr.write(`adk serve: listening on ${server.url} (API under /v1, OpenAPI at /openapi.json)\n`);
  if (noToken) process.stderr.write('adk serve: --no-token: every local account, process and container sharing this network can create sessions, read every session it serves and approve commands\n');
  else if (auth) process.stderr.write(accessLines(server.url, auth));
  if (hub instanceof QueuedHub) {
    process.stderr.write(`adk serve: turns are queued on ${stores.kv.describe()} for \`adk worker\` processes\n`);
    // (a worker that has just started takes a moment to show up)
    const queued = hub;
    setTimeout(() => {
      void queued.workerCount().then((n) => {
        if (n === 0) process.stderr.write(`adk serve: no adk worker is listening on ${stores.kv.describe()} yet; turns wait in the queue until one starts\n`);
      }, () => {});
    }, WORKER_CHECK_DELAY_MS).unref();
  }
  await untilStopSignal();
  process.stderr.write('adk serve: stopping; running turns stop at a safe point and are saved (Ctrl-C again to quit at once)\n');
  await server.close({ cancel: true });
  await stores.close();
  return ExitCode.ok;
}

/**
 * How to reach a tokened server. The token itself is printed only to a person's terminal (as
 * Jupyter does), never into a log a pipe collects: there the file that holds it is named.
 */
function accessLines(url: string, auth: { token: string; file?: string }): string {
  const where = auth.file ? `the token is in ${auth.file}` : 'the token is ADK_SERVE_TOKEN';
  const how = `clients send "Authorization: Bearer <token>"; front ends that cannot add a header use ${url}/t/<token>/ as their base URL`;
  if (!process.stderr.isTTY) return `adk serve: every request needs the token (${where}); ${how}\n`;
  return `adk serve: open ${url}/#token=${encodeURIComponent(auth.token)}\nadk serve: ${where}; ${how}\n`;
}

/** `--client-policy any|narrow` (default any: a token holder may also approve calls one by one). */
function clientPolicy(v: string | undefined): 'any' | 'narrow' {
  if (v === undefined || v === 'any') return 'any';
  if (v === 'narrow') return 'narrow';
  throw new CliError(`--client-policy ${v}: expected any or narrow`);
}
