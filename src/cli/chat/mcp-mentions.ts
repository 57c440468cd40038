import type { McpServerPool } from '../../core/tools/mcp.js';
import { MENTION_MAX_CHARS } from './mentions.js';

/** `@server:uri` tokens naming a resource of one of the team's MCP servers. */
export function resourceMentions(text: string, servers: readonly string[]): Array<{ server: string; uri: string }> {
  const out: Array<{ server: string; uri: string }> = [];
  for (const m of text.matchAll(/(?:^|\s)@([A-Za-z0-9_-]+):(\S+)/g)) {
    const uri = m[2]!.replace(/[.,;!?)]+$/, '');
    if (servers.includes(m[1]!) && uri) out.push({ server: m[1]!, uri });
  }
  return out;
}

/** The message with each mentioned MCP resource attached (capped), as the model gets it. */
export async function withResourceMentions(text: string, pool: McpServerPool | undefined): Promise<string> {
  if (!pool || !text.includes('@')) return text;
  const parts: string[] = [];
  for (const { server, uri } of resourceMentions(text, pool.serverNames())) {
    try {
      const body = await pool.readResource(server, uri);
      const cut = body.length > MENTION_MAX_CHARS ? `${body.slice(0, MENTION_MAX_CHARS)}\n[… ${body.length - MENTION_MAX_CHARS} more characters]` : body;
      parts.push(`<resource server="${server}" uri="${uri}">\n${cut}\n</resource>`);
    } catch (e) {
      parts.push(`<resource server="${server}" uri="${uri}" error="${(e as Error).message.replace(/"/g, "'")}" />`);
    }
  }
  return parts.length ? `${text}\n\n${parts.join('\n\n')}` : text;
}

/**
 * `/server:prompt args` as the text of a turn: the server's prompt with the arguments given in
 * order (or as name=value), undefined when the text is no such prompt.
 */
export async function expandMcpPrompt(text: string, pool: McpServerPool | undefined): Promise<string | undefined> {
  const m = /^\/([A-Za-z0-9_-]+):(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m || !pool?.has(m[1]!)) return undefined;
  const [, server, name, rest = ''] = m;
  const prompt = (await pool.listPrompts(server!)).find((p) => p.name === name);
  if (!prompt) throw new Error(`MCP server '${server}' has no prompt '${name}'`);
  const declared = prompt.arguments ?? [];
  const words = rest.trim() ? rest.trim().split(/\s+/) : [];
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const w of words) {
    const kv = /^([A-Za-z0-9_-]+)=(.*)$/.exec(w);
    if (kv && declared.some((d) => d.name === kv[1])) args[kv[1]!] = kv[2]!;
    else positional.push(w);
  }
  for (const d of declared) if (args[d.name] === undefined && positional.length) args[d.name] = positional.shift()!;
  // Words past the declared arguments belong to the last one ("a city name with spaces").
  const last = declared.at(-1);
  if (positional.length && last) args[last.name] = [args[last.name], ...positional].filter(Boolean).join(' ');
  const missing = declared.filter((d) => d.required && !args[d.name]).map((d) => d.name);
  if (missing.length) throw new Error(`/${server}:${name} needs ${missing.join(', ')} (arguments: ${declared.map((d) => `${d.name}${d.required ? '' : '?'}`).join(' ')})`);
  return pool.getPrompt(server!, name!, args);
}

/** Every prompt of the team's MCP servers as a command to complete (a server that does not start offers none). */
export async function mcpPromptCommands(pool: McpServerPool | undefined): Promise<Array<{ name: string; description: string }>> {
  if (!pool) return [];
  const lists = await Promise.all(
    pool.serverNames().map(async (server) => {
      try {
        await pool.toolsFor(server);
        return (await pool.listPrompts(server)).map((p) => ({ name: `/${server}:${p.name}`, description: `${p.description ?? 'MCP prompt'}${p.arguments?.length ? ` (${p.arguments.map((a) => a.name).join(' ')})` : ''}` }));
      } catch {
        return [];
      }
    }),
  );
  return lists.flat();
}
