import type { Message } from '../../core/schema/message.js';

/** A conversation read from another tool's session file, and what of it could not be carried over. */
export interface ImportedConversation {
  format: 'claude-code' | 'codex' | 'gemini-cli' | 'atif';
  messages: Message[];
  model?: string | undefined;
  /** Tokens the file says the session used (Codex's last total, gemini-cli's per reply). */
  usage?: { promptTokens: number; completionTokens: number } | undefined;
  /** What was left out, one line each (`12 progress lines`, `a result for an unknown call toolu_…`). */
  unmapped: string[];
}
