import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { formatRule } from '../../core/agents/allow-rules.js';
import type { Conversation } from '../../core/conversation/conversation.js';
import type { Team } from '../team.js';

/** adk's commands that make sense inside an editor (the rest of the REPL's are terminal things). */
export const SLASH_COMMANDS: AvailableCommand[] = [
  { name: 'compact', description: 'Summarise the conversation so far to free the context window', input: { hint: 'what the summary should keep (optional)' } },
  { name: 'clear', description: 'Start the context afresh (the session keeps its history)' },
  { name: 'tools', description: 'The team’s tools and what runs without asking' },
  { name: 'agents', description: 'The team’s agents, as a tree' },
];

/**
 * Runs `/name args` when it is one of SLASH_COMMANDS and returns what to show; undefined for any
 * other text (it goes to the model, as `/` can start a normal message).
 */
export async function runSlashCommand(session: { conv: Conversation<Team> }, text: string): Promise<string | undefined> {
  const m = /^\/([a-z]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m || !SLASH_COMMANDS.some((c) => c.name === m[1])) return undefined;
  const conv = session.conv;
  const args = m[2]?.trim() ?? '';
  switch (m[1]) {
    case 'compact': {
      const done = await conv.compact({ force: true, instructions: args || undefined });
      return done ? `Compacted ${done.summarized} messages into a summary.` : 'Nothing to compact yet.';
    }
    case 'clear':
      await conv.clearContext();
      return 'The context is clear: the next message starts afresh.';
    case 'tools': {
      const team = conv.team;
      const rules = [...team.allowRules.map((r) => `\`${formatRule(r)}\``), ...conv.grants.map((t) => `\`${t}\` (this session)`)];
      return `Tools: ${team.toolNames.map((t) => `\`${t}\``).join(', ') || 'none'}.\n\nRuns without asking: ${rules.join(', ') || 'nothing; every call that needs approval asks'}.`;
    }
    case 'agents':
      return `\`\`\`text\n${conv.team.tree}\n\`\`\``;
  }
  return undefined;
}
