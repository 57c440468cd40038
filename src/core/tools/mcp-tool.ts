import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/client';
import { createHash } from 'node:crypto';
import { validateArguments } from './parameters.js';
import type { JsonSchema, Tool, ToolContext, ToolOutput } from './tool.js';

/** Calls a tool on a named server; the pool implements it so a wrapped tool survives restarts. */
export type McpCaller = (server: string, tool: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutput>;

/** Model-facing tool names allow only letters, digits, `_` and `-` (OpenAI's rule). */
export function modelToolName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return clean || 'tool';
}

/**
 * `mcp__<server>__<tool>`, Claude Code's name for an MCP tool, within the 64 characters a model
 * API allows: a longer one keeps its start and ends in a hash of the whole, so it stays unique.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (full.length <= 64) return full;
  return `${full.slice(0, 55)}_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
}

/** Whether `tool` (one of `server`'s) answers to `name`: the name it is offered as, or the server's own. */
export function isMcpToolNamed(tool: { name: string }, server: string, name: string): boolean {
  return tool.name === name || tool.name === mcpToolName(server, name);
}

/**
 * Wraps one tool listed by an MCP server as an adk Tool named `name`. It is read-only (runs in plan
 * mode) only when the person marked the server so: the server's own `readOnlyHint` is no promise.
 */
export function wrapMcpTool(server: string, info: McpToolInfo, call: McpCaller, opts: { name?: string | undefined; readOnly?: boolean | undefined } = {}): Tool<Record<string, unknown>> {
  return {
    name: opts.name ?? mcpToolName(server, info.name),
    description: info.description || info.title || info.annotations?.title || `Tool '${info.name}' from MCP server '${server}'.`,
    parameters: usableSchema(info.inputSchema as JsonSchema),
    readOnly: opts.readOnly === true,
    execute: (args, ctx) => call(server, info.name, args ?? {}, ctx),
  };
}

/**
 * The server's input schema, as long as our validator can compile it. A schema it cannot
 * (an unknown draft, a broken $ref) falls back to "any object": the server validates anyway.
 */
function usableSchema(schema: JsonSchema | undefined): JsonSchema {
  const { $schema: _drop, ...rest } = schema ?? {};
  const candidate: JsonSchema = { ...rest, type: 'object' };
  try {
    validateArguments({ parameters: candidate }, {});
    return candidate;
  } catch {
    return { type: 'object', properties: (rest.properties as object) ?? {} , additionalProperties: true };
  }
}

/** Text parts are joined; other parts are named so the model knows they exist. */
export function mcpResultToOutput(result: CallToolResult | { toolResult?: unknown }, server = 'server'): ToolOutput {
  if ('toolResult' in result && !('content' in result)) return { content: JSON.stringify(result.toolResult) };
  const r = result as CallToolResult;
  const parts = (r.content ?? []).map((c) => {
    switch (c.type) {
      case 'text':
        return c.text;
      case 'image':
      case 'audio':
        return `[${c.type}: ${c.mimeType}, ${Math.floor((c.data.length * 3) / 4)} bytes]`;
      case 'resource':
        return 'text' in c.resource && typeof c.resource.text === 'string' ? c.resource.text : `[resource: ${c.resource.uri}]`;
      case 'resource_link':
        return `[resource link: ${c.uri}${c.name ? ` (${c.name})` : ''}; read it with ${modelToolName(`${server}_read_resource`)}]`;
      default:
        return JSON.stringify(c);
    }
  });
  let content = parts.join('\n');
  // The model sees the data too, unless the text already is that data.
  if (r.structuredContent !== undefined) {
    const json = JSON.stringify(r.structuredContent);
    if (!content) content = json;
    else if (!sameJson(content, r.structuredContent)) content = `${content}\n[structured result] ${json}`;
  }
  const structured = r.structuredContent !== undefined ? { structured: r.structuredContent } : {};
  return r.isError ? { content: content || 'the MCP tool reported an error', isError: true, ...structured } : { content, ...structured };
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** `<server>_read_resource`: reads a resource the server listed or linked to in a result, on demand. */
export function readResourceTool(server: string, read: (uri: string, signal: AbortSignal) => Promise<string>): Tool<{ uri: string }> {
  return {
    name: modelToolName(`${server}_read_resource`),
    description: `Read a resource of MCP server '${server}' by its URI (resources it lists, or a resource link in one of its tool results).`,
    parameters: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI' } }, required: ['uri'], additionalProperties: false },
    readOnly: true,
    execute: async ({ uri }, ctx) => {
      try {
        return await read(uri, ctx.signal);
      } catch (e) {
        return { content: `Error: could not read ${uri} from MCP server '${server}': ${(e as Error).message}`, isError: true };
      }
    },
  };
}
