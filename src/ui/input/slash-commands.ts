export interface SlashCommandInfo {
  /** With the slash: `/help`. */
  name: string;
  description?: string;
  /** Sent as a message the host expands (custom commands, skills), not run by the app. */
  message?: boolean;
}

export const DEFAULT_SLASH_COMMANDS: SlashCommandInfo[] = [
  { name: '/help', description: 'show commands and keys' },
  { name: '/agents', description: 'show the agent tree; pick another team of the file (a new session)' },
  { name: '/sessions', description: 'list saved sessions' },
  { name: '/resume', description: 'continue a saved session' },
  { name: '/new', description: 'start a new session' },
  { name: '/rewind', description: 'go back to before an earlier message: the conversation, the files or both (Esc Esc)' },
  { name: '/fork', description: 'a new session with this conversation so far (this one stays as it is)' },
  { name: '/model', description: 'show or change the model' },
  { name: '/tools', description: 'list the tools' },
  { name: '/permissions', description: 'permission rules of this folder and yours, by file; remove one' },
  { name: '/init', description: 'write a starter AGENTS.md for this folder (never overwrites one)' },
  { name: '/clear', description: "clear the screen and the model's context (the session keeps its history)" },
  { name: '/compact', description: "summarise the conversation so far into the model's context ([instructions]: what to keep)" },
  { name: '/goal', description: 'work until a check passes: /goal npm test (runs in the sandbox; each attempt a turn; /goal off drops it)' },
  { name: '/cost', description: 'tokens and what they cost, for the session and the last turn' },
  { name: '/memory', description: 'open AGENTS.md (this folder\'s or yours) in $EDITOR; `# text` adds a line to it' },
  { name: '/hooks', description: 'the hooks that run on this session\'s events (settings files and agents.yaml)' },
  { name: '/mcp', description: 'MCP servers: status and tools; /mcp login NAME logs in to a remote one' },
  { name: '/expand', description: 'show the last collapsed output in full' },
  { name: '/exit', description: 'quit' },
];

/**
 * Commands matching what is typed, while the input is a single `/word` being written; once a space
 * follows the command, the argument choices offered for it (`/model qwen3:8b`), so Tab picks one.
 */
export function slashSuggestions(text: string, commands: readonly SlashCommandInfo[]): SlashCommandInfo[] {
  if (/^\/\S*$/.test(text)) return commands.filter((c) => !c.name.includes(' ') && c.name.startsWith(text) && c.name !== text);
  if (/^\/\S+ \S*$/.test(text)) return commands.filter((c) => c.name.includes(' ') && c.name.startsWith(text) && c.name !== text);
  return [];
}

export function commonPrefix(words: readonly string[]): string {
  if (!words.length) return '';
  let p = words[0];
  for (const w of words) while (!w.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** `/help foo` → { name: '/help', args: 'foo' }; undefined when the text is not a command. */
export function parseSlashCommand(text: string): { name: string; args: string } | undefined {
  const m = /^(\/[^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : undefined;
}
