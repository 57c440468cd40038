import { resolve } from 'node:path';
import { redactSecrets, secretsFromEnv } from '../../core/store/redact.js';
import { createMcpApp, RunningCalls } from '../../serve/mcp-serve/mcp-app.js';
import type { TeamHost } from '../../serve/mcp-serve/team-call.js';
import { startMcpHttp, type McpListen } from '../../serve/mcp-serve/http.js';
import { serveStdio } from '../../serve/mcp-serve/stdio.js';
import { teamTools } from '../../serve/mcp-serve/team-tools.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { addConfigSecret, configSecretValues } from '../secrets.js';
import { leaseOptions, sessionTeamOptions } from '../session-access.js';
import { serveToken } from '../serve-token.js';
import { untilStopSignal } from '../signals.js';
import { openStores } from '../stores.js';
import { loadTeam, loadTeamConfig } from '../team.js';
import { packageVersion } from '../version.js';
import { parseSessionPolicy, type SessionPolicy } from '../../core/conversation/session-policy.js';
import { budgetLimits, dailyLimits, type BudgetFlags } from '../unattended.js';

export interface McpServeOptions extends BudgetFlags {
  /** `--agents F`: the agents file (default ./agents.yaml, else the bundled one). */
  agents?: string | undefined;
  /** `--agent A` (repeatable): the agents offered as tools (default: every root agent of the file). */
  agent?: string[] | string | undefined;
  /** `--http PORT`: streamable HTTP on this port (0 picks one) instead of stdio. */
  http?: string | number | undefined;
  /** `--host H`: the HTTP address (default 127.0.0.1); beyond loopback it needs the token. */
  host?: string | undefined;
  /** `--socket PATH`: streamable HTTP on a Unix socket only you can open (no token needed there). */
  socket?: string | undefined;
  /** `--no-token`: HTTP on loopback without the token. */
  noToken?: boolean | undefined;
  /** commander's spelling of `--no-token` (false when given). */
  token?: boolean | undefined;
  model?: string | undefined;
  /** How calls run when nobody answers approvals (kept with each session): `--permission-mode`, `--allow`, `--deny`, `--on-approval`. */
  permissionMode?: string | undefined;
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  onApproval?: string | undefined;
}

/**
 * `adk mcp serve`: adk's teams as MCP tools, for Claude Code, Codex, Cursor… On stdio (the
 * default) stdout carries protocol messages only; with --http/--socket, MCP's streamable HTTP at
 * /mcp, guarded by the same token as `adk serve`. Runs until the client leaves (stdio) or a stop
 * signal; calls under way are cancelled and saved first.
 */
export async function mcpServeCommand(opts: McpServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const secrets = () => [...secretsFromEnv(env), ...configSecretValues()];
  const log = (line: string) => process.stderr.write(`adk mcp serve: ${redactSecrets(line, secrets())}\n`);
  const listen = listenFrom(opts);
  const noToken = opts.noToken === true || opts.token === false;
  if (noToken && !listen) throw new CliError('--no-token is for --http: on stdio only the client that started adk talks to it');
  if (noToken && listen && 'socket' in listen) throw new CliError('--socket needs no token already: leave out --no-token');
  // Anything printed to stdout would corrupt the protocol stream (stdio) and is a log line anyway.
  console.log = console.info = console.debug = (...args: unknown[]) => log(args.map(String).join(' '));

  // Checked before anything starts; bypass is not offered to MCP clients.
  const policy = sessionPolicyOf(opts);
  const budget = budgetLimits(opts);
  const dailyBudget = dailyLimits(opts);
  const caps = { ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) };
  const agentsFile = opts.agents ? resolve(opts.agents) : undefined;
  const chosen = typeof opts.agent === 'string' ? [opts.agent] : (opts.agent ?? []);
  // Read, validated and trusted once up front (as `adk serve`): an untrusted file fails here, before any client calls.
  const { config } = await loadTeamConfig({ agentsFile, env });
  const tools = usage(() => teamTools(config, chosen));
  if (!tools.length) throw new CliError(`${config.file} has no agents to offer`);
  const first = await loadTeam({ agentsFile, agentName: tools[0]!.agent, model: opts.model, env });
  await first.close();
  const auth = listen && !noToken && !('socket' in listen) ? serveToken(env) : undefined;
  // The token is a credential: redacted wherever adk prints or stores text, as an API key is.
  if (auth) addConfigSecret(auth.token);

  const stores = await openStores(env);
  const running = new RunningCalls();
  const host: TeamHost = {
    stores,
    newTeam: (agent) => loadTeam({ agentsFile, agentName: agent, model: opts.model, env, ...caps }),
    sessionTeam: (record) => loadTeam({ ...sessionTeamOptions(record, { model: opts.model }), env, ...caps }),
    ...(policy ? { policy } : {}),
    secrets,
    lease: leaseOptions(env),
    log,
  };
  const newServer = () => createMcpApp(host, tools, running, packageVersion());
  try {
    if (!listen) {
      log(`serving ${tools.map((t) => t.name).join(', ')} on stdio`);
      await serveStdio(newServer(), untilStopSignal());
      await running.stop();
      return ExitCode.ok;
    }
    const http = await startMcpHttp({ newServer, token: auth?.token, log }, listen).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE') throw new CliError(`port ${'port' in listen ? listen.port : ''} is already in use: pick another with --http`, ExitCode.usage);
      throw new CliError(e.message, ExitCode.usage);
    });
    log(`serving ${tools.map((t) => t.name).join(', ')} at ${http.url}`);
    if (noToken) log('--no-token: every local account, process and container sharing this network can run these teams');
    else if (auth) log(`every request needs "Authorization: Bearer <token>" (${auth.file ? `the token is in ${auth.file}` : 'the token is ADK_SERVE_TOKEN'})`);
    await untilStopSignal();
    log('stopping; calls under way are cancelled and saved');
    await running.stop();
    await http.close();
    return ExitCode.ok;
  } finally {
    await stores.close();
  }
}

function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new CliError((e as Error).message, ExitCode.usage);
  }
}

/** Where the HTTP face listens; none: stdio. */
function listenFrom(opts: McpServeOptions): McpListen | undefined {
  if (opts.socket && opts.http !== undefined) throw new CliError('--http and --socket both say where to listen: give one');
  if (opts.socket) return { socket: opts.socket };
  if (opts.http === undefined) {
    if (opts.host) throw new CliError('--host is for --http PORT: on stdio there is no address');
    return undefined;
  }
  const port = Number(opts.http);
  if (String(opts.http).trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--http takes a port number (0-65535), not '${opts.http}'`);
  return { host: opts.host ?? '127.0.0.1', port };
}

/** The unattended policy the flags make, or undefined when none is given (a bad flag is a usage error). */
function sessionPolicyOf(opts: McpServeOptions): SessionPolicy | undefined {
  if (opts.permissionMode === undefined && !opts.allow?.length && !opts.deny?.length && opts.onApproval === undefined) return undefined;
  try {
    return parseSessionPolicy({ permission_mode: opts.permissionMode, allow: opts.allow, deny: opts.deny, on_approval: opts.onApproval });
  } catch (e) {
    throw new CliError(`adk mcp serve: ${(e as Error).message}`, ExitCode.usage);
  }
}
