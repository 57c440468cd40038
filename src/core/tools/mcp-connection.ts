import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { stdioTransport } from './mcp-read-buffer.js';

/** How to start one stdio MCP server (an `mcp_servers:` entry of agents.yaml); times are in milliseconds. */
export interface McpServerConfig {
  command: string;
  args?: string[] | undefined;
  /** Added to a minimal inherited environment (HOME, PATH, …). */
  env?: Record<string, string> | undefined;
  /** Working folder of the server process. */
  cwd?: string | undefined;
  /** Per-call timeout for this server's tools. */
  timeoutMs?: number | undefined;
}

/** Life of a server connection: not started yet, starting, ready for calls, or stopped (exited, failed or closed). */
export type McpServerState = 'idle' | 'starting' | 'ready' | 'stopped';

const STDERR_TAIL_CHARS = 2_000;
/**
 * The largest single message read from a server (the SDK's default is 10 MB, past which it drops
 * the connection). Results up to this size arrive and are capped like any tool output.
 */
export const MCP_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** One stdio MCP server process and its client session. Started at most once; see McpServerPool for restarts. */
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
  ) {}

  get pid(): number | undefined {
    return (this.client?.transport as StdioClientTransport | undefined)?.pid ?? undefined;
  }

  /** Starts the process, connects and lists its tools. Rejects with a readable message. */
  start(): Promise<void> {
    this.starting ??= this.doStart().catch((e: unknown) => {
      this.markStopped(`it failed to start: ${(e as Error).message}`);
      void this.client?.close().catch(() => {});
      throw new Error(`MCP server '${this.name}' failed to start: ${(e as Error).message}${this.stderrNote()}`);
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.state = 'starting';
    const changed = await this.codeGuard?.();
    if (changed) throw new Error(`not started: ${changed} since the folder was trusted (a tool or command may have written it); review it, then run adk trust and start a new session`);
    const transport = stdioTransport(
      {
        command: this.config.command,
        args: this.config.args ?? [],
        env: this.config.env,
        cwd: this.config.cwd ? path.resolve(this.config.cwd) : undefined,
        stderr: 'pipe',
      },
      MCP_MAX_MESSAGE_BYTES,
    );
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const client = new Client({ name: 'adk', version: '0.1.0' });
    this.client = client;
    client.onerror = (e) => {
      if (/ReadBuffer exceeded/.test(e.message)) this.oversized = true;
    };
    client.onclose = () =>
      this.markStopped(this.oversized ? `it sent a message larger than ${MCP_MAX_MESSAGE_BYTES / 1024 / 1024} MB (adk's limit for one MCP message), so adk stopped it` : 'it exited');
    await client.connect(transport, { timeout: this.startTimeoutMs });
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.startTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    if (this.state === 'starting') this.state = 'ready';
  }

  async callTool(name: string, args: Record<string, unknown>, options: { signal: AbortSignal; timeoutMs: number }): Promise<CallToolResult> {
    if (this.state !== 'ready' || !this.client) throw new Error(`MCP server '${this.name}' is not running: ${this.stopReason ?? 'it has not started'}`);
    return (await this.client.callTool({ name, arguments: args }, undefined, { signal: options.signal, timeout: options.timeoutMs })) as CallToolResult;
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

/** The SDK's request timeout: the pool turns it into a "timed out" result. */
export function isMcpTimeout(e: unknown): boolean {
  return e instanceof McpError && e.code === ErrorCode.RequestTimeout;
}
