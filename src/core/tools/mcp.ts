import { cancelledBy } from '../errors.js';
import type { McpConnection } from './mcp-connection.js';
import type { McpConnectionHooks, McpServerConfig } from './mcp-config.js';
import { isMcpToolNamed, mcpResultToOutput, mcpToolName, modelToolName, readResourceTool, wrapMcpTool } from './mcp-tool.js';
import { McpElicitations } from './mcp-elicitation.js';
import type { Tool, ToolContext, ToolOutput } from './tool.js';
import type { ToolOutputEvent } from './builtin/tool-output.js';

export type { McpServerConfig, McpServerState, McpConnectionHooks, McpProgram, McpOAuthClientProvider } from './mcp-config.js';

/** Per-call timeout of MCP tools when neither the server nor the pool sets one, in milliseconds. */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** How long a starting server may take to connect, and to answer each page of its tool list, in milliseconds. */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;

/** Options of McpServerPool; timeouts are in milliseconds, a server's own `timeoutMs` wins over `callTimeoutMs`. */
export interface McpPoolOptions {
  /** Working folder for servers without their own `cwd`. */
  cwd?: string | undefined;
  callTimeoutMs?: number | undefined;
  startTimeoutMs?: number | undefined;
  /** Start a stopped server again when one of its tools is called. Off by default: a crash stays visible. */
  restartOnUse?: boolean | undefined;
  /** Asked before a server process starts: what changed in the trusted code, if anything (a change refuses the start). */
  codeGuard?: (() => Promise<string | undefined>) | undefined;
  /** Logins for remote servers and the hosts they may resolve to. */
  authProvider?: McpConnectionHooks['authProvider'];
  allowHosts?: McpConnectionHooks['allowHosts'];
  /** Where local servers run (the registry's sandbox); undefined: on the host, as configured. */
  sandbox?: McpConnectionHooks['sandbox'];
  /** Names no MCP tool may take (the built-ins, tools from code): a server's tool keeps its prefix instead. */
  reservedNames?: ReadonlySet<string> | undefined;
}

/**
 * The configured MCP servers. Each starts on first use (listing or calling its tools), is shared by
 * every agent, and stays up until `close()`. A server that dies turns its tools' calls into error
 * results; the run goes on.
 */
export class McpServerPool {
  private readonly connections = new Map<string, McpConnection>();
  private readonly wrapped = new Map<string, Tool[]>();
  private readonly listing = new Map<string, Promise<Tool[]>>();
  private readonly elicitations = new McpElicitations();
  private closed = false;

  constructor(
    readonly servers: Readonly<Record<string, McpServerConfig>>,
    private readonly options: McpPoolOptions = {},
  ) {}

  serverNames(): string[] {
    return Object.keys(this.servers);
  }

  has(server: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.servers, server);
  }

  /** Whether the server's tools are already known (it was started at least once). */
  isStarted(server: string): boolean {
    return this.wrapped.has(server);
  }

  status(server: string): { state: string; pid?: number; error?: string } {
    const c = this.connections.get(server);
    if (!c) return { state: 'idle' };
    return { state: c.state, ...(c.pid ? { pid: c.pid } : {}), ...(c.stopReason ? { error: c.stopReason } : {}) };
  }

  /** All tools of a server, starting it if needed. Throws if it cannot start. */
  async toolsFor(server: string): Promise<Tool[]> {
    let p = this.listing.get(server);
    if (!p) {
      p = this.connect(server).then((c) => {
        const tools = this.wrap(server, c);
        this.wrapped.set(server, tools);
        return tools;
      });
      this.listing.set(server, p);
    }
    return p;
  }

  /** The server's tools as it lists them now (undefined until it has started). */
  currentTools(server: string): Tool[] | undefined {
    return this.wrapped.get(server);
  }

  /**
   * A server's tools as adk tools (those its `tools` filter lets through), and a tool to read the
   * resources it links to when it has any. Names are `mcp__<server>__<tool>`; with `prefix: false`
   * the server's own name, unless a built-in or another server's tool has it, which keeps the prefix
   * (said in `renamed`, for /mcp): no listing, first or later, can shadow another tool.
   */
  private wrap(server: string, c: McpConnection): Tool[] {
    const config = this.servers[server]!;
    const include = config.tools?.include && new Set(config.tools.include);
    const exclude = new Set(config.tools?.exclude ?? []);
    const taken = new Set(this.options.reservedNames ?? []);
    for (const [other, tools] of this.wrapped) if (other !== server) for (const t of tools) taken.add(t.name);
    const renamed: string[] = [];
    const tools = c.tools
      .filter((t) => (!include || include.has(t.name)) && !exclude.has(t.name))
      .map((t) => {
        const own = modelToolName(t.name);
        let name = mcpToolName(server, t.name);
        if (config.prefix === false) {
          // Its own name, unless another tool has it or it looks like another server's (mcp__x__y, x_read_resource).
          if (taken.has(own) || own.startsWith('mcp__') || own.endsWith('_read_resource')) renamed.push(`${t.name} is offered as ${name}: ${own} is taken`);
          else name = own;
        }
        taken.add(name);
        return wrapMcpTool(server, t, (s, n, args, ctx) => this.call(s, n, args, ctx), { name, readOnly: config.readOnly });
      });
    if (c.capabilities?.resources) tools.push(readResourceTool(server, (uri, signal) => this.readResource(server, uri, signal)));
    this.renamedBy.set(server, renamed);
    return tools;
  }

  /** Tools of a `prefix: false` server that kept their prefix because another tool has the name (for /mcp). */
  renamed(server: string): readonly string[] {
    return this.renamedBy.get(server) ?? [];
  }
  private readonly renamedBy = new Map<string, string[]>();

  /** The server's tool list changed (tools/list_changed): the next lookups see the new one. */
  private toolsChanged(server: string): void {
    const c = this.connections.get(server);
    if (c?.state === 'ready' && this.wrapped.has(server)) {
      const tools = this.wrap(server, c);
      this.wrapped.set(server, tools);
      this.listing.set(server, Promise.resolve(tools));
    }
  }

  /** The resources a server lists (empty when it offers none), starting it if needed. */
  async listResources(server: string) {
    return (await this.connect(server)).listResources();
  }

  /** One resource's contents as text (binary parts are named, not inlined). */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    const r = await (await this.connect(server)).readResource(uri, signal);
    return r.contents.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : `[${c.mimeType ?? 'binary'} resource ${c.uri}, ${Math.floor(((c as { blob?: string }).blob?.length ?? 0) * 0.75)} bytes]`)).join('\n');
  }

  /** The prompts a server offers (`/server:prompt` in the REPL). */
  async listPrompts(server: string) {
    return (await this.connect(server)).listPrompts();
  }

  /** A prompt's messages as the text of a user turn. */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<string> {
    const r = await (await this.connect(server)).getPrompt(name, args);
    return r.messages.map((m) => (m.content.type === 'text' ? m.content.text : m.content.type === 'resource' && 'text' in m.content.resource ? String(m.content.resource.text) : `[${m.content.type}]`)).join('\n\n');
  }

  async tool(server: string, toolName: string): Promise<Tool> {
    const tools = await this.toolsFor(server);
    const t = tools.find((x) => isMcpToolNamed(x, server, toolName));
    if (!t) throw new Error(`MCP server '${server}' has no tool '${toolName}' (it has: ${tools.map((x) => x.name).join(', ') || 'none'})`);
    return t;
  }

  /** The first server, in config order, that has a tool of this name (as offered, or the server's own). Starts servers until found. */
  async findTool(toolName: string): Promise<{ server: string; tool: Tool } | undefined> {
    for (const server of this.serverNames()) {
      const tool = (await this.toolsFor(server)).find((t) => isMcpToolNamed(t, server, toolName));
      if (tool) return { server, tool };
    }
    return undefined;
  }

  /** Tool names of the servers started so far, by server. */
  startedToolNames(): Record<string, string[]> {
    return Object.fromEntries([...this.wrapped].map(([s, tools]) => [s, tools.map((t) => t.name)]));
  }

  /** Calls a tool; every failure but cancellation comes back as an error result. */
  async call(server: string, toolName: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    if (this.closed) return notRunning(server, 'it was closed');
    let c = this.connections.get(server);
    if (c?.state === 'starting') await c.start().catch(() => {});
    if (!c || c.state !== 'ready') {
      if (!this.options.restartOnUse || !c) return notRunning(server, c?.stopReason);
      try {
        // Concurrent callers share one restart: only the first replaces the dead connection.
        if (this.connections.get(server) === c) {
          this.connections.delete(server);
          void c.close();
        }
        c = await this.connect(server);
      } catch (e) {
        return notRunning(server, this.connections.get(server)?.stopReason ?? (e as Error).message);
      }
    }
    const timeoutMs = this.servers[server].timeoutMs ?? this.options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    // Progress the server reports shows on the call's row, as a running command's output does.
    const onProgress = (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
      const tail = `${p.message ? `${p.message} ` : ''}(${p.progress}${p.total ? `/${p.total}` : ''})`;
      ctx.emit({ agentName: ctx.agentName, runPath: [], output: { custom: { type: 'tool_output', callId: ctx.callId, tail } satisfies ToolOutputEvent } });
    };
    try {
      // A question the server asks while the tool runs stops the run for the person (an interrupt);
      // answered in this process, the same call goes on; in another, the call is made again and
      // its question answered with what the person said.
      const result = await this.elicitations.run(server, ctx, (signal) => c!.callTool(toolName, args, { signal, timeoutMs, onProgress }));
      return mcpResultToOutput(result, server);
    } catch (e) {
      if (this.elicitations.isInterrupt(e)) throw e;
      if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
      if (connectionModule?.isMcpTimeout(e)) {
        return { content: `Error: MCP tool '${toolName}' on server '${server}' timed out after ${timeoutMs} ms`, isError: true };
      }
      if (c.state !== 'ready') return notRunning(server, c.stopReason);
      return { content: `Error: MCP tool '${toolName}' on server '${server}' failed: ${(e as Error).message}`, isError: true };
    }
  }

  /** Drops a server's connection (after a login, say): the next use connects again. */
  async reconnect(server: string): Promise<void> {
    const c = this.connections.get(server);
    this.connections.delete(server);
    this.listing.delete(server);
    this.wrapped.delete(server);
    await c?.close();
  }

  /** Stops every server. Call on exit. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }

  private async connect(server: string): Promise<McpConnection> {
    if (this.closed) throw new Error(`MCP server '${server}' cannot start: the server pool is closed`);
    const config = this.servers[server];
    if (!config || !this.has(server)) throw new Error(`unknown MCP server '${server}' (configured: ${this.serverNames().join(', ') || 'none'})`);
    // Loaded already when a server restarts: no await, so concurrent callers share the new connection.
    const { McpConnection } = connectionModule ?? (await loadConnection());
    let c = this.connections.get(server);
    if (!c) {
      c = new McpConnection(server, { ...config, cwd: config.cwd ?? this.options.cwd }, this.options.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS, this.options.codeGuard, {
        authProvider: this.options.authProvider,
        allowHosts: this.options.allowHosts,
        sandbox: this.options.sandbox,
        onListChanged: (s, what) => what === 'tools' && this.toolsChanged(s),
        onElicitation: (s, request) => this.elicitations.ask(s, request),
      });
      this.connections.set(server, c);
    }
    await c.start();
    return c;
  }
}

// The MCP SDK is loaded with the first server that starts: teams without MCP never pay for it.
let connectionModule: typeof import('./mcp-connection.js') | undefined;
const loadConnection = async () => (connectionModule ??= await import('./mcp-connection.js'));

function notRunning(server: string, reason?: string): ToolOutput {
  return { content: `Error: MCP server '${server}' is not running: ${reason ?? 'it has not started'}`, isError: true };
}
