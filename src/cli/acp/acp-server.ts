import { PROTOCOL_VERSION, RequestError, type AgentContext, type AuthMethod, type ClientCapabilities, type InitializeRequest, type InitializeResponse, type ListSessionsRequest, type ListSessionsResponse, type LoadSessionRequest, type LoadSessionResponse, type NewSessionRequest, type NewSessionResponse, type ResumeSessionRequest, type ResumeSessionResponse, type SetSessionConfigOptionRequest, type SetSessionConfigOptionResponse } from '@agentclientprotocol/sdk';
import { isAbsolute } from 'node:path';
import { Conversation } from '../../core/conversation/conversation.js';
import type { AdkStores } from '../../core/store/index.js';
import { CliError } from '../exit-codes.js';
import { lockedNewId, lockedSession, sessionTeamOptions } from '../session-access.js';
import { loadTeam, UntrustedAgentsFileError, type Team, type TeamOptions } from '../team.js';
import { packageVersion } from '../version.js';
import { AcpSession } from './acp-session.js';
import { historyUpdates } from './history-replay.js';
import { modeState } from './modes.js';
import type { BudgetLimits, DailyLimits } from '../../core/agents/run-budget.js';

export interface AcpOptions {
  /** An absolute agents file for every session (`--agents`); else each session's folder decides. */
  agents?: string | undefined;
  agent?: string | undefined;
  model?: string | undefined;
  /** Each turn's caps (`adk acp --max-cost`…): a turn that reaches one asks the editor to raise it. */
  budget?: BudgetLimits | undefined;
  /** Caps per day over every run on this store (`--max-daily-…`). */
  dailyBudget?: DailyLimits | undefined;
}

/** Keys live in the environment the editor starts adk with: that is the one way to "log in". */
const AUTH_METHODS: AuthMethod[] = [
  {
    id: 'environment',
    name: 'API key in the environment',
    description:
      'Set the key variable of your model provider (OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPSEEK_API_KEY, …, or the api_key_env named in agents.yaml) in the environment your editor starts `adk acp` with (Zed: agent_servers.adk.env), then restart the agent. Without any key adk runs its offline demo model.',
  },
];

/**
 * adk as an ACP agent: each editor session is an adk session (same id, so `adk resume` and
 * `session/load` reach the same conversation), built from the session folder's agents.yaml under
 * the same folder trust and lease as `adk chat`.
 */
export class AcpServer {
  private caps: ClientCapabilities | undefined;
  private readonly sessions = new Map<string, AcpSession>();

  constructor(
    private readonly stores: AdkStores,
    private readonly options: AcpOptions,
    private readonly log: (line: string) => void,
  ) {}

  initialize(params: InitializeRequest): InitializeResponse {
    this.caps = params.clientCapabilities;
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        // Text, images, and files as links or embedded (text, or a PDF's bytes).
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      authMethods: AUTH_METHODS,
      agentInfo: { name: 'adk', title: 'adk', version: packageVersion() },
    };
  }

  /** There is nothing to do here but check: keys come from the environment (see AUTH_METHODS). */
  async authenticate(): Promise<Record<string, never>> {
    return {};
  }

  async newSession(params: NewSessionRequest, client: AgentContext): Promise<NewSessionResponse> {
    const team = await this.team({ cwd: folder(params.cwd), agentsFile: this.options.agents, agentName: this.options.agent, model: this.options.model, editorMcpServers: editorServers(params.mcpServers) });
    try {
      const { lease } = await lockedNewId(this.stores);
      const conv = await Conversation.create(this.stores, team, lease);
      const session = this.add(new AcpSession(conv, client, this.caps, this.log));
      setImmediate(() => session.announceCommands());
      return { sessionId: session.id, modes: modeState(session.currentMode), configOptions: session.configOptions() };
    } catch (e) {
      await team.close();
      throw e;
    }
  }

  /** session/load: the stored conversation replayed as updates, then it goes on in this process. */
  loadSession(params: LoadSessionRequest, client: AgentContext): Promise<LoadSessionResponse> {
    return this.open(params, client, true);
  }

  /** session/resume: as load, without the replay (the editor still shows the conversation). */
  resumeSession(params: ResumeSessionRequest, client: AgentContext): Promise<ResumeSessionResponse> {
    return this.open({ ...params, mcpServers: params.mcpServers ?? [] }, client, false);
  }

  /** session/close: a running turn stops and is saved; the session's lease is given back. */
  async closeSession(id: string): Promise<Record<string, never>> {
    const s = this.session(id);
    this.sessions.delete(id);
    await s.close();
    return {};
  }

  private async open(params: LoadSessionRequest, client: AgentContext, replay: boolean): Promise<LoadSessionResponse> {
    const open = this.sessions.get(params.sessionId);
    if (open) {
      if (replay) open.replay(historyUpdates(await this.fullHistory(open.id), open.conv.team.workspace));
      await open.flushed();
      return { modes: modeState(open.currentMode), configOptions: open.configOptions() };
    }
    const { record, lease } = await lockedSession(this.stores, params.sessionId).catch((e: unknown) => {
      throw /does not exist|no session/i.test((e as Error).message) ? RequestError.resourceNotFound(params.sessionId) : asRequestError(e);
    });
    let team: Team | undefined;
    try {
      team = await this.team({ ...sessionTeamOptions(record, { model: this.options.model }), editorMcpServers: editorServers(params.mcpServers) });
      const session = this.add(new AcpSession(Conversation.open(this.stores, team, record, lease), client, this.caps, this.log));
      if (replay) session.replay(historyUpdates(await this.fullHistory(record.id), team.workspace));
      await session.flushed();
      setImmediate(() => session.announceCommands());
      return { modes: modeState(session.currentMode), configOptions: session.configOptions() };
    } catch (e) {
      await team?.close();
      await lease.release();
      throw e;
    }
  }

  async listSessions(params: ListSessionsRequest): Promise<ListSessionsResponse> {
    const cwd = params.cwd ? folder(params.cwd) : undefined;
    const list = (await this.stores.sessions.list())
      .filter((s) => !s.corrupt && s.workspace && (!cwd || s.workspace === cwd))
      .map((s) => s as Extract<typeof s, { corrupt: false }>)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return { sessions: list.map((s) => ({ sessionId: s.id, cwd: s.workspace!, title: s.title || null, updatedAt: s.updatedAt })) };
  }

  session(id: string): AcpSession {
    const s = this.sessions.get(id);
    if (!s) throw RequestError.resourceNotFound(id);
    return s;
  }

  async setConfigOption(params: SetSessionConfigOptionRequest): Promise<SetSessionConfigOptionResponse> {
    const session = this.session(params.sessionId);
    const value = String(params.value);
    if (params.configId === 'mode') session.setMode(value);
    else if (params.configId === 'model') await session.setModel(value).catch((e: unknown) => {
      throw asRequestError(e);
    });
    else throw RequestError.invalidParams(undefined, `unknown option '${params.configId}'; options: mode, model`);
    return { configOptions: session.configOptions() };
  }

  /** The client left: running turns stop and are saved as cancelled, then every lease is given back. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
    this.sessions.clear();
  }

  private add(session: AcpSession): AcpSession {
    this.sessions.set(session.id, session);
    return session;
  }

  private async fullHistory(id: string) {
    const record = await this.stores.sessions.get(id);
    return [...(record?.messages ?? []), ...(record?.pendingTurn ?? [])] as Parameters<typeof historyUpdates>[0];
  }

  /** The team for a session, with adk's errors as the editor should show them. */
  private async team(options: TeamOptions): Promise<Team> {
    try {
      const { budget, dailyBudget } = this.options;
      return await loadTeam({ ...options, ...(budget ? { budget } : {}), ...(dailyBudget ? { dailyBudget } : {}) });
    } catch (e) {
      throw asRequestError(e);
    }
  }

}

/**
 * The MCP servers the editor passes: stdio, streamable HTTP and SSE, each as adk's own `mcp_servers:`
 * entry would be; credentials (variables and headers named like a key or token) are redacted
 * wherever adk prints or stores text.
 */
function editorServers(servers: NewSessionRequest['mcpServers'] | undefined): NonNullable<TeamOptions['editorMcpServers']> {
  return (servers ?? []).map((s) => {
    if ('type' in s && (s.type === 'http' || s.type === 'sse')) {
      const headers = Object.fromEntries(s.headers.map((h) => [h.name, h.value]));
      return { name: s.name, url: s.url, transport: s.type, headers };
    }
    const stdio = s as Extract<typeof s, { command: string }>;
    return { name: stdio.name, command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) };
  });
}

/** The session folder as an absolute path (ACP requires one). */
function folder(cwd: string): string {
  if (!isAbsolute(cwd)) throw RequestError.invalidParams(undefined, `cwd must be an absolute path, not '${cwd}'`);
  return cwd;
}

/** adk's error as a JSON-RPC error with its own words (an untrusted folder, a missing key, a bad agents.yaml). */
export function asRequestError(e: unknown): RequestError {
  if (e instanceof RequestError) return e;
  const message = (e as Error).message ?? String(e);
  if (/needs an API key/.test(message)) return RequestError.authRequired(undefined, message);
  if (e instanceof UntrustedAgentsFileError) return new RequestError(-32603, message, { untrusted: e.file });
  if (e instanceof CliError) return new RequestError(-32603, message);
  return RequestError.internalError(undefined, message);
}
