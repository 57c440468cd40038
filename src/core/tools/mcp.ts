import { cancelledBy } from '../errors.js';
import type { McpConnection, McpServerConfig } from './mcp-connection.js';
import { mcpResultToOutput, wrapMcpTool } from './mcp-tool.js';
import type { Tool, ToolContext, ToolOutput } from './tool.js';

export type { McpServerConfig, McpServerState } from './mcp-connection.js';

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
        const tools = c.tools.map((t) => wrapMcpTool(server, t, (s, name, args, ctx) => this.call(s, name, args, ctx)));
        this.wrapped.set(server, tools);
        return tools;
      });
      this.listing.set(server, p);
    }
    return p;
  }

  async tool(server: string, toolName: string): Promise<Tool> {
    const tools = await this.toolsFor(server);
    const t = tools.find((x) => x.name === toolName);
    if (!t) throw new Error(`MCP server '${server}' has no tool '${toolName}' (it has: ${tools.map((x) => x.name).join(', ') || 'none'})`);
    return t;
  }

  /** The first server, in config order, that has a tool of this name. Starts servers until found. */
  async findTool(toolName: string): Promise<{ server: string; tool: Tool } | undefined> {
    for (const server of this.serverNames()) {
      const tool = (await this.toolsFor(server)).find((t) => t.name === toolName);
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
    try {
      return mcpResultToOutput(await c.callTool(toolName, args, { signal: ctx.signal, timeoutMs }));
    } catch (e) {
      if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
      if (connectionModule?.isMcpTimeout(e)) {
        return { content: `Error: MCP tool '${toolName}' on server '${server}' timed out after ${timeoutMs} ms`, isError: true };
      }
      if (c.state !== 'ready') return notRunning(server, c.stopReason);
      return { content: `Error: MCP tool '${toolName}' on server '${server}' failed: ${(e as Error).message}`, isError: true };
    }
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
      c = new McpConnection(server, { ...config, cwd: config.cwd ?? this.options.cwd }, this.options.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS, this.options.codeGuard);
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
