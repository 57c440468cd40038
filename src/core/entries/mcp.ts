/** `adk/mcp`: MCP servers as tools (stdio, streamable HTTP and SSE, through @modelcontextprotocol/client). */
export * from '../tools/mcp.js';
