import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { McpServer } from '@modelcontextprotocol/server';

/**
 * Serves one client on stdin/stdout until it closes its end (or `stop` settles: a signal). stdout
 * carries protocol messages only: the caller has sent every log line to stderr.
 */
export async function serveStdio(mcp: McpServer, stop: Promise<unknown>): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (mcp.server.onclose = resolve));
  await mcp.connect(transport);
  await Promise.race([closed, stop]);
  await mcp.close().catch(() => {});
}
