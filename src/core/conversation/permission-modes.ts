import type { ApprovalPolicy } from '../agents/run-context.js';

/**
 * The permission modes of a session: default (ask as the team says), accept-edits (file edits run
 * unasked, shell still asks), plan (read-only tools only), bypass (everything runs unasked: only
 * where a person allowed it, `--dangerously-skip-permissions`). The REPL cycles them with Shift-Tab,
 * `adk run` takes `--permission-mode`, a served session its `policy`.
 */
export type PermissionMode = 'default' | 'accept-edits' | 'plan' | 'bypass';

export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'plan', 'bypass'];

/** An editor's working modes (ACP `session/set_mode`): the same policies under the names editors use. */
export type EditorMode = 'ask' | 'auto-edit' | 'plan';

/** Also Claude Code's spellings, so its `defaultMode` values work in adk's settings. */
const ALIASES: Record<string, PermissionMode> = {
  default: 'default',
  ask: 'default',
  'accept-edits': 'accept-edits',
  acceptedits: 'accept-edits',
  'auto-edit': 'accept-edits',
  plan: 'plan',
  bypass: 'bypass',
  bypasspermissions: 'bypass',
};

export function parsePermissionMode(text: string): PermissionMode | undefined {
  return ALIASES[text.trim().toLowerCase()];
}

const EDIT_TOOLS = new Set(['write_file', 'edit_file']);
const NEVER: ReadonlySet<string> = new Set();

/** What an editor mode lets run unasked and refuses outright, on top of the session's grants and rules. */
export function modePolicy(mode: EditorMode, neverRun: ReadonlySet<string>): ApprovalPolicy {
  return {
    allows: ({ tool }) => mode === 'auto-edit' && EDIT_TOOLS.has(tool),
    refuses: ({ tool, readOnly }) => {
      if (neverRun.has(tool)) return `The user chose to reject every ${tool} call in this session; ${tool} was not run. Do without it or ask the user.`;
      if (mode === 'plan' && !readOnly) {
        return `Plan mode is on: ${tool} changes things, so it was not run. Only read and search now; finish with your plan, and the user will switch modes to carry it out.`;
      }
      return undefined;
    },
  };
}

/** What a permission mode adds to the session's policy (the Conversation's `mode`). */
export function permissionModePolicy(mode: PermissionMode): ApprovalPolicy | undefined {
  switch (mode) {
    case 'accept-edits':
      return modePolicy('auto-edit', NEVER);
    case 'plan':
      return modePolicy('plan', NEVER);
    case 'bypass':
      return { allows: () => true };
    default:
      return undefined;
  }
}
