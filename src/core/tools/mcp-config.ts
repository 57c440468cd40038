import type { AllowEntry } from './net/address-policy.js';

// The MCP configuration and hooks as adk/mcp's users see them. Nothing here names
// @modelcontextprotocol/client (an optional peer), so these declarations type-check without it.

/**
 * `@modelcontextprotocol/client`'s `OAuthClientProvider` (adk's own is `adk mcp login`'s), named by
 * the members adk relies on so that adk/mcp's types need no optional peer installed.
 */
export interface McpOAuthClientProvider {
  readonly redirectUrl: string | URL | undefined;
  tokens(...args: never[]): unknown;
}

/**
 * One `mcp_servers:` entry of agents.yaml: a program adk starts (`command`, stdio) or a remote
 * server (`url`: streamable HTTP, or legacy HTTP+SSE); times are in milliseconds.
 */
export interface McpServerConfig {
  command?: string | undefined;
  args?: string[] | undefined;
  /** Added to a minimal inherited environment (HOME, PATH, …). */
  env?: Record<string, string> | undefined;
  /** Working folder of the server process. */
  cwd?: string | undefined;
  url?: string | undefined;
  /** `http` (default: streamable HTTP, falling back to SSE for servers that predate it) or `sse`. */
  transport?: 'http' | 'sse' | undefined;
  /** Sent with every request to a remote server (`${VAR}` values are expanded when the file is read). */
  headers?: Record<string, string> | undefined;
  /** Per-call timeout for this server's tools. */
  timeoutMs?: number | undefined;
  /**
   * Tools are offered as `mcp__<server>__<tool>` (Claude Code's names), so no two servers and no
   * built-in ever share a name; `false` offers the server's own names where nothing else has them.
   */
  prefix?: boolean | undefined;
  /** Which of the server's tools are offered, by the server's own names (exclude wins). */
  tools?: { include?: string[] | undefined; exclude?: string[] | undefined } | undefined;
  /**
   * The person marks the server read-only: its tools run in plan mode. A server's own
   * `readOnlyHint` is its word, not the person's, and never counts.
   */
  readOnly?: boolean | undefined;
  /** `off`: the program runs on the host (the person's own servers; in an agents file, a trust power). */
  sandbox?: 'off' | undefined;
}

/** A local server's program as it would start on the host. */
export interface McpProgram {
  command: string;
  args: string[];
  cwd?: string | undefined;
  /** Variables added to the SDK's inherited few (default: the entry's `env`). */
  env?: Record<string, string> | undefined;
}

/** What a connection asks of whoever runs it: logins, network rules, and where local programs run. */
export interface McpConnectionHooks {
  /** The OAuth client for a remote server (`adk mcp login` keeps its tokens); undefined: no OAuth. */
  authProvider?: ((server: string, url: string) => McpOAuthClientProvider | undefined) | undefined;
  /** Hosts a remote server may resolve to besides public addresses (ADK_FETCH_ALLOW_HOSTS). */
  allowHosts?: readonly AllowEntry[] | undefined;
  /** The server's tool, prompt or resource list changed. */
  onListChanged?: ((server: string, what: 'tools' | 'prompts' | 'resources') => void) | undefined;
  /** How a local server's program is started instead (inside the sandbox); undefined: as it is. */
  sandbox?: ((server: string, config: McpServerConfig, program: McpProgram) => Promise<McpProgram | undefined>) | undefined;
}

/** Life of a server connection: not started yet, starting, ready for calls, or stopped (exited, failed or closed). */
export type McpServerState = 'idle' | 'starting' | 'ready' | 'stopped';
