import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { ApprovalPolicy } from '../../core/agents/run-context.js';

/** The working modes an editor can switch between (session/set_mode, or the mode config option). */
export type ModeId = 'ask' | 'auto-edit' | 'plan';

export const MODES: SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Every command and file change waits for your approval (the team’s approval settings).' },
  { id: 'auto-edit', name: 'Auto-edit', description: 'File edits run without asking; shell commands still ask.' },
  { id: 'plan', name: 'Plan', description: 'Read-only: the agent reads and plans, nothing is changed.' },
];

export const isModeId = (v: unknown): v is ModeId => MODES.some((m) => m.id === v);

export const modeState = (current: ModeId): SessionModeState => ({ currentModeId: current, availableModes: MODES });

const EDIT_TOOLS = new Set(['write_file', 'edit_file']);

/** What the mode lets run unasked and refuses outright, on top of the session's grants and rules. */
export function modePolicy(mode: ModeId, neverRun: ReadonlySet<string>): ApprovalPolicy {
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
