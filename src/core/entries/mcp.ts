/** `adk/mcp`: MCP servers as tools (stdio, through @modelcontextprotocol/sdk). */
export * from '../tools/mcp.js';
