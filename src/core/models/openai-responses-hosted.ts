// Items of the tools OpenAI runs on its side (web search, file search, code interpreter, image
// generation, hosted MCP). They are the model's own work: shown as its thought, kept whole and sent
// back in their place (a reasoning item must be followed by the item it led to), never run by adk.

type Item = Record<string, unknown>;

const HOSTED = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools']);

export function isHostedItem(item: Item): boolean {
  return typeof item.type === 'string' && HOSTED.has(item.type);
}

/** One line for the thought: what the tool was asked, without the bulk (images, file contents). */
export function hostedItemThought(item: Item): string {
  const type = String(item.type);
  const name = type === 'mcp_call' ? `${String(item.server_label ?? 'mcp')}.${String(item.name ?? '')}` : type.replace(/_call$/, '');
  const action = (item.action ?? {}) as Item;
  const asked =
    type === 'web_search_call'
      ? { ...(action.query !== undefined ? { query: action.query } : {}), ...(action.url !== undefined ? { url: action.url } : {}), ...(action.pattern !== undefined ? { pattern: action.pattern } : {}) }
      : type === 'file_search_call'
        ? { queries: item.queries }
        : type === 'code_interpreter_call'
          ? { code: item.code }
          : type === 'mcp_call'
            ? { arguments: item.arguments }
            : type === 'image_generation_call'
              ? { status: item.status }
              : {};
  const sources = Array.isArray(action.sources) ? ` (${action.sources.length} sources)` : '';
  return `\n[${name} ran on OpenAI's side] ${JSON.stringify(asked)}${sources}\n`;
}
