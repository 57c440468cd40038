/** `adk/tools`: the built-in tools (file tools confined to a workspace, the sandboxed shell, fetch_url…) and the registry agents.yaml uses. */
export * from '../tools/builtin/index.js';
export { ToolRegistry, describeRef, type ToolRef, type ToolRegistryOptions } from '../tools/registry.js';
export { agentTool, AGENT_TOOL_PARAMETERS, type AgentToolOptions } from '../agents/agent-tool.js';
export { defineTool, ToolInterrupt, type Tool, type ToolContext, type ToolInfo, type ToolOutput, type JsonSchema } from '../tools/tool.js';
