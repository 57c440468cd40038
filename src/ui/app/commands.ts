import type { AgentEvent } from '../../core/agents/types.js';
import { DEFAULT_SLASH_COMMANDS, parseSlashCommand as parse, type SlashCommandInfo } from '../input/slash-commands.js';
import type { RunOutcome } from '../state/consume-run.js';
import type { NewTranscriptItem } from '../state/transcript.js';
import { formatTokens } from '../components/StatusLine.js';
import type { PickerItem } from '../components/Picker.js';
import { costUsd, formatUsd, type ModelPrice } from '../../core/models/pricing.js';

/** What a slash command can do to the screen. */
export interface ChatUi {
  info(text: string, tone?: 'info' | 'warning' | 'success' | 'muted'): void;
  error(text: string): void;
  /** Prints markdown under a name (e.g. `/agents` output under `adk`). */
  markdown(text: string, title?: string): void;
  /** Prints a finished transcript row as is (an earlier session's messages, tool rows, transfers). */
  append(item: NewTranscriptItem): void;
  /**
   * Starts over on screen (nothing printed is erased); another session passes its token counts.
   * With `screen` (`/clear`) the visible rows are scrolled up into the scrollback first.
   */
  clear(usage?: { promptTokens: number; completionTokens: number }, o?: { screen?: boolean }): void;
  /** Shows a run (e.g. the rest of a resumed session); prompts open if it stops for a person. */
  run(events: AsyncIterable<AgentEvent> | ((signal: AbortSignal) => AsyncIterable<AgentEvent>)): Promise<RunOutcome>;
  usage(): { promptTokens: number; completionTokens: number };
  /** What the last run used, when one ran in this view. */
  lastTurnUsage?(): { promptTokens: number; completionTokens: number } | undefined;
  /** The session's tokens per model (`/cost`). */
  usageByModel?(): Record<string, { promptTokens: number; completionTokens: number }> | undefined;
  /** The model's price per million tokens, when known. */
  price?(): ModelPrice | undefined;
  expandLast(): void;
  /** Offers these values after `command ` in the input's suggestions (Tab picks one); replaces earlier ones. */
  choices(command: string, values: ReadonlyArray<{ value: string; description?: string }>): void;
  exit(): void;
  /** A list to choose from with ↑/↓ and Enter, in place of the input box; undefined when Esc. */
  pick?(title: string, items: readonly PickerItem[], options?: { filter?: boolean }): Promise<string | undefined>;
  /** Puts text in the message box (a rewound message, to edit and send again). */
  setInput?(text: string): void;
}

/** A command from the input, when the text is one (`/path/to/file` is not). */
export function parseCommand(text: string, commands: readonly SlashCommandInfo[]): { name: string; args: string } | undefined {
  // A lone `/` asks what there is: never a message to the model.
  if (text.trim() === '/') return { name: '/help', args: '' };
  // `# always use pnpm`: a line for AGENTS.md (memory), when the host keeps one.
  if (/^#(?!#)\s*\S/.test(text) && commands.some((k) => k.name === '/memory')) return { name: '#', args: text.replace(/^#\s*/, '').trim() };
  const c = parse(text);
  if (!c) return undefined;
  // `/server:prompt` is an MCP server's prompt: a message, expanded by the host.
  if (c.name.includes(':')) return undefined;
  // `/etc is full` reads as a message; an unknown `/word` alone reads as a mistyped command.
  const found = commands.find((k) => k.name === c.name);
  // A custom command or a skill is a message the host expands.
  if (found?.message) return undefined;
  const known = !!found;
  if (known) return c;
  if (c.args) return undefined;
  // `/he` alone is `/help` when no other command starts so (what Tab would complete).
  const starts = commands.filter((k) => !k.name.includes(' ') && k.name.startsWith(c.name));
  return starts.length === 1 ? { name: starts[0]!.name, args: '' } : c;
}

/** What the app does for a command the caller did not take. */
export function defaultCommand(name: string, ui: ChatUi, commands: readonly SlashCommandInfo[] = DEFAULT_SLASH_COMMANDS): void {
  switch (name) {
    case '/exit':
      return ui.exit();
    case '/expand':
      return ui.expandLast();
    case '/clear':
      return ui.clear(undefined, { screen: true });
    case '/cost':
      return ui.info(costText(ui.usage(), ui.lastTurnUsage?.(), ui.price?.(), ui.usageByModel?.()));
    case '/help':
      return ui.markdown(helpText(commands), 'help');
    default:
      return ui.error(`Unknown command ${name}. Type /help for the list.`);
  }
}

/** `/cost`: tokens and, with a known price, dollars; for the session and for the last turn. */
export function costText(session: Usage, lastTurn: Usage | undefined, price: ModelPrice | undefined, byModel?: Record<string, Usage>): string {
  const line = (u: Usage) => `${formatTokens(u.promptTokens)} in, ${formatTokens(u.completionTokens)} out${price ? ` = ${formatUsd(costUsd(u, price))}` : ''}`;
  const parts = [`This session: ${line(session)}.`];
  if (lastTurn) parts.push(`Last turn: ${line(lastTurn)}.`);
  // Every request counts, sub-agents' and summaries' too; per model (issue 32).
  const models = Object.entries(byModel ?? {});
  const perModel = models.length ? ` By model: ${models.map(([m, u]) => `${m} ${formatTokens(u.promptTokens)} in, ${formatTokens(u.completionTokens)} out`).join('; ')}.` : '';
  parts.push(price ? `Priced at $${price.input} / $${price.output} per million tokens in / out, from ${price.source ?? 'the model'} (set \`price:\` on the model in agents.yaml to change it).` : 'No price is known for this model: set `price: { input, output }` (USD per million tokens) on it in agents.yaml.');
  if (perModel) parts.push(perModel.trim());
  return parts.join(' ');
}

type Usage = { promptTokens: number; completionTokens: number };

export function helpText(commands: readonly SlashCommandInfo[]): string {
  const rows = commands.map((c) => `- \`${c.name}\` ${c.description ?? ''}`).join('\n');
  return [
    rows,
    '`!command` runs a shell command in the workspace (you typed it: no approval) and adds its output to the conversation. `@path` attaches a workspace file to your message. A lone `/` shows this help; a unique prefix (`/he`) runs its command.',
    'Keys: Enter sends (while a run works it queues: the run takes it after its current tool calls, else it goes when the turn ends; Esc takes it back) · `\\`+Enter, Ctrl-J, Alt-Enter or Shift-Enter add a line · ↑/↓ history, Ctrl-R searches it · Alt-B/F or Ctrl-←/→ move by words, Home/End or Ctrl-A/E to the line ends · Backspace/Delete delete the character before/after the cursor, Ctrl-U/Ctrl-K to the line start/end, Ctrl-W or Alt-Backspace the word before, Alt-D the word after · Tab completes commands and @paths · Ctrl-G edits the message in $EDITOR · Ctrl-O opens the transcript view (every item expandable, `/` searches, Esc returns) · Esc cancels a run (Esc Esc on an empty box: /rewind) · Ctrl-B moves a running shell command to the background · Ctrl-C twice exits, Ctrl-D on an empty line exits, Ctrl-Z suspends to the shell (`fg` returns).',
    'At a prompt: `y` approve, `a` then `y` always allow (this session), `n` reject, `e` edit the arguments, Esc reject, ↑/↓ scroll; a plan: `y`/Enter accept, `f` ask for changes; a list: ↑/↓, Enter, Esc.',
  ].join('\n\n');
}
