import type { SessionChoice } from '../chat/choose-session.js';
import type { BudgetFlags } from '../unattended.js';

/** `adk chat`'s options (and interactive `adk resume`'s), shared by the REPL and piped chat. */
export interface ChatCommandOptions extends SessionChoice, BudgetFlags {
  resume?: string;
  model?: string;
  agents?: string;
  agent?: string;
  /** --fallback: models asked when the model is unavailable after its retries. */
  fallback?: string[];
  /** --permission-mode and --dangerously-skip-permissions (see chat/permission-mode.ts). */
  permissionMode?: string;
  dangerouslySkipPermissions?: boolean;
}
