import { Client, SdkError, SdkErrorCode, SSEClientTransport, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult, ElicitRequest, ElicitResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool as McpToolInfo } from '@modelcontextprotocol/client';
import path from 'node:path';
import { stdioTransport } from './mcp-read-buffer.js';
import { mcpFetch } from './mcp-http-fetch.js';
import { isMcpLoginRequired, McpLoginRequiredError } from './mcp-oauth/login-required.js';
import type { McpConnectionHooks, McpProgram, McpServerConfig, McpServerState } from './mcp-config.js';

export type { McpConnectionHooks, McpOAuthClientProvider, McpProgram, McpServerConfig, McpServerState } from './mcp-config.js';

/** What the connection itself is given besides the public hooks: the pool's elicitation handler. */
export interface McpConnectionInternals extends McpConnectionHooks {
  /** The server asks the person something (elicitation) while one of its tools runs. */
  onElicitation?: ((server: string, request: ElicitRequest['params']) => Promise<ElicitResult>) | undefined;
}

const STDERR_TAIL_CHARS = 2_000;
/**
 * The largest single message read from a server (the SDK's default is 10 MB, past which it drops
 * the connection). Results up to this size arrive and are capped like any tool output.
 */
export const MCP_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** One MCP server (a process, or a remote endpoint) and its client session. Started at most once; see McpServerPool for restarts. */
export class McpConnection {
  state: McpServerState = 'idle';
  private stopCause?: string | undefined;
  tools: McpToolInfo[] = [];
  private client?: Client | undefined;
  private starting?: Promise<void> | undefined;
  private stderrTail = '';
  private closing = false;
  private oversized = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly startTimeoutMs: number,
    /** What changed in the trusted code, asked before the process starts (a change refuses the start). */
    private readonly codeGuard?: () => Promise<string | undefined>,
    private readonly hooks: McpConnectionInternals = {},
  ) {}

  get pid(): number | undefined {
    return (this.client?.transport as StdioClientTransport | undefined)?.pid ?? undefined;
  }

  get remote(): boolean {
    return !!this.config.url;
  }

  /** What the server offers besides tools. */
  get capabilities() {
    return this.client?.getServerCapabilities();
  }

  /** Starts the process or reaches the server, connects and lists its tools. Rejects with a readable message. */
  start(): Promise<void> {
    this.starting ??= this.doStart().catch((e: unknown) => {
      this.markStopped(`it failed to start: ${(e as Error).message}`);
      void this.client?.close().catch(() => {});
      // The whole story is the line to run (`adk mcp login NAME`).
      if (isMcpLoginRequired(e)) throw new Error(e.line, { cause: e });
      throw new Error(`MCP server '${this.name}' failed to ${this.remote ? 'connect' : 'start'}: ${(e as Error).message}${this.stderrNote()}`);
    });
    return this.starting;
  }

  private newClient(): Client {
    const hooks = this.hooks;
    const client = new Client(
      { name: 'adk', version: '0.1.0' },
      {
        // Sampling is not offered: a server's request for it is refused by the SDK.
        capabilities: hooks.onElicitation ? { elicitation: { form: {} } } : {},
        listChanged: hooks.onListChanged
          ? {
              tools: { autoRefresh: true, onChanged: (_e, tools) => this.toolsChanged(tools) },
              prompts: { autoRefresh: false, onChanged: () => hooks.onListChanged?.(this.name, 'prompts') },
              resources: { autoRefresh: false, onChanged: () => hooks.onListChanged?.(this.name, 'resources') },
            }
          : undefined,
      },
    );
    if (hooks.onElicitation) client.setRequestHandler('elicitation/create', (request) => hooks.onElicitation!(this.name, request.params));
    client.onerror = (e) => {
      if (/ReadBuffer exceeded/.test(e.message)) this.oversized = true;
    };
    // A close while starting is that attempt failing (start() reports it); a dropped client is not ours.
    client.onclose = () =>
      this.client === client &&
      this.state !== 'starting' &&
      this.markStopped(this.oversized ? `it sent a message larger than ${MCP_MAX_MESSAGE_BYTES / 1024 / 1024} MB (adk's limit for one MCP message), so adk stopped it` : this.remote ? 'the connection closed' : 'it exited');
    return client;
  }

  private toolsChanged(tools: McpToolInfo[] | null): void {
    if (tools) this.tools = tools;
    this.hooks.onListChanged?.(this.name, 'tools');
  }

  private async doStart(): Promise<void> {
    this.state = 'starting';
    if (this.config.url) {
      await this.connectRemote(this.config.url);
    } else {
      const changed = await this.codeGuard?.();
      if (changed) throw new Error(`not started: ${changed} since the folder was trusted (a tool or command may have written it); review it, then run adk trust and start a new session`);
      const program: McpProgram = { command: this.config.command ?? '', args: this.config.args ?? [], cwd: this.config.cwd ? path.resolve(this.config.cwd) : undefined };
      const launch = (await this.hooks.sandbox?.(this.name, this.config, program)) ?? program;
      const transport = stdioTransport({ ...launch, env: launch.env ?? this.config.env, stderr: 'pipe' }, MCP_MAX_MESSAGE_BYTES);
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
      });
      this.client = this.newClient();
      await this.client.connect(transport, { timeout: this.startTimeoutMs });
    }
    this.tools = await this.listAll((cursor) => this.client!.listTools(cursor ? { cursor } : undefined, { timeout: this.startTimeoutMs }), (p) => p.tools);
    if (this.state === 'starting') this.state = 'ready';
  }

  /** Streamable HTTP first; a server that predates it (4xx on the first POST) is tried over SSE. */
  private async connectRemote(url: string): Promise<void> {
    const target = new URL(url);
    const fetch = mcpFetch(target, this.hooks.allowHosts);
    const requestInit = { headers: { ...this.config.headers } };
    // The hook's type names only what adk reads; the object is the SDK's own provider.
    const authProvider = this.hooks.authProvider?.(this.name, url) as OAuthClientProvider | undefined;
    const opts = { requestInit, fetch, ...(authProvider ? { authProvider } : {}) };
    const attempt = async (transport: Transport) => {
      this.client = this.newClient();
      await this.client.connect(transport, { timeout: this.startTimeoutMs });
    };
    try {
      if (this.config.transport === 'sse') return await attempt(new SSEClientTransport(target, opts));
      try {
        await attempt(new StreamableHTTPClientTransport(target, { ...opts, reconnectionOptions: RECONNECT }));
      } catch (e) {
        if (!isLegacyServer(e)) throw e;
        await this.client?.close().catch(() => {});
        await attempt(new SSEClientTransport(target, opts));
      }
    } catch (e) {
      if (isMcpLoginRequired(e)) throw e;
      if (e instanceof UnauthorizedError || /\b401\b|unauthori[sz]ed|invalid_token/i.test((e as Error).message)) throw new McpLoginRequiredError(this.name, 'needs-login');
      throw e;
    }
  }

  private async listAll<P extends { nextCursor?: string | undefined }, T>(page: (cursor?: string) => Promise<P>, items: (p: P) => T[]): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(cursor);
      out.push(...items(p));
      cursor = p.nextCursor;
    } while (cursor);
    return out;
  }

  async callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number; onProgress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined }): Promise<CallToolResult> {
    const client = this.ready();
    return (await client.callTool(
      { name, arguments: args },
      {
        signal: options.signal,
        timeout: options.timeoutMs,
        // A server that reports progress is alive: its calls may take longer than the timeout in all.
        ...(options.onProgress ? { onprogress: options.onProgress, resetTimeoutOnProgress: true, maxTotalTimeout: options.timeoutMs * 10 } : {}),
      },
    )) as CallToolResult;
  }

  async listResources(): Promise<Resource[]> {
    const client = this.ready();
    if (!client.getServerCapabilities()?.resources) return [];
    return this.listAll((cursor) => client.listResources(cursor ? { cursor } : undefined, { timeout: this.startTimeoutMs }), (p) => p.resources);
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.ready().readResource({ uri }, { timeout: this.startTimeoutMs, ...(signal ? { signal } : {}) });
  }

  async listPrompts(): Promise<Prompt[]> {
    const client = this.ready();
    if (!client.getServerCapabilities()?.prompts) return [];
    return this.listAll((cursor) => client.listPrompts(cursor ? { cursor } : undefined, { timeout: this.startTimeoutMs }), (p) => p.prompts);
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.ready().getPrompt({ name, arguments: args }, { timeout: this.startTimeoutMs });
  }

  private ready(): Client {
    if (this.state !== 'ready' || !this.client) throw new Error(`MCP server '${this.name}' is not running: ${this.stopReason ?? 'it has not started'}`);
    return this.client;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.markStopped('it was closed');
    await this.client?.close().catch(() => {});
  }

  /** Why the server is not running, once it has stopped; stderr is read late because it can trail the exit. */
  get stopReason(): string | undefined {
    if (!this.stopCause) return undefined;
    return this.stopCause === 'it was closed' ? this.stopCause : `${this.stopCause}${this.stderrNote()}`;
  }

  private markStopped(cause: string): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    this.stopCause = this.closing ? 'it was closed' : cause;
  }

  private stderrNote(): string {
    const last = this.stderrTail.trim().split('\n').slice(-5).join('\n').trim();
    return last ? ` (stderr: ${last})` : '';
  }
}

/** A dropped stream is taken up again (with the session id and Last-Event-ID) a few times, backing off. */
const RECONNECT = { initialReconnectionDelay: 500, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 2, maxRetries: 5 };

/** The MCP spec's test for a server that predates streamable HTTP: the first POST gets 400, 404 or 405. */
function isLegacyServer(e: unknown): boolean {
  const status = (e as { data?: { status?: unknown } }).data?.status ?? Number(/\(HTTP (40[045])\)/.exec((e as Error).message ?? '')?.[1]);
  return status === 400 || status === 404 || status === 405;
}

/** The SDK's request timeout: the pool turns it into a "timed out" result. */
export function isMcpTimeout(e: unknown): boolean {
  return e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout;
}
