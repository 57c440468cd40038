import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { EditorMode } from '../../core/conversation/permission-modes.js';

/** The working modes an editor can switch between (session/set_mode, or the mode config option). */
export type ModeId = EditorMode;

export const MODES: SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Every command and file change waits for your approval (the team’s approval settings).' },
  { id: 'auto-edit', name: 'Auto-edit', description: 'File edits run without asking; shell commands still ask.' },
  { id: 'plan', name: 'Plan', description: 'Read-only: the agent reads and plans, nothing is changed.' },
];

export const isModeId = (v: unknown): v is ModeId => MODES.some((m) => m.id === v);

export const modeState = (current: ModeId): SessionModeState => ({ currentModeId: current, availableModes: MODES });

/** What the mode lets run unasked and refuses outright (the policy lives with the session's, in core). */
export { modePolicy } from '../../core/conversation/permission-modes.js';
