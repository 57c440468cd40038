/** One MCP server as `adk mcp add` writes it and agents.yaml's `mcp_servers:` holds it. */
export interface McpServerEntry {
  command?: string | undefined;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  url?: string | undefined;
  transport?: 'http' | 'sse' | undefined;
  headers?: Record<string, string> | undefined;
  /** As in agents.yaml: `false` keeps the server's own tool names where free; `tools` filters; `readOnly` lets them run in plan mode. */
  prefix?: boolean | undefined;
  tools?: { include?: string[] | undefined; exclude?: string[] | undefined } | undefined;
  readOnly?: boolean | undefined;
}

/** Names of variables and headers that carry credentials: their values are redacted everywhere. */
export const SECRET_NAME = /auth|token|key|secret|cookie|session|credential|passw/i;

/** How the entry reaches its server, for listings: the URL, or the command line. */
export function describeEntry(e: McpServerEntry): string {
  return e.url ? `${e.url} (${e.transport ?? 'http'})` : [e.command, ...(e.args ?? [])].join(' ');
}

/** The entry without its credential values (listings show which headers and variables are set, not their values). */
export function maskedEntry(e: McpServerEntry): McpServerEntry {
  const mask = (o: Record<string, string> | undefined) => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, SECRET_NAME.test(k) && !/^\$\{[^}]+\}$/.test(v) ? '***' : v])) : undefined);
  return { ...e, ...(e.env ? { env: mask(e.env) } : {}), ...(e.headers ? { headers: mask(e.headers) } : {}) };
}
