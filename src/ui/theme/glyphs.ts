import type { ToolStatus } from '../state/transcript.js';

export const TOOL_GLYPH: Record<Exclude<ToolStatus, 'running'>, string> = {
  pending: '○',
  done: '✓',
  error: '✗',
  rejected: '⊘',
};

export const TOOL_GLYPH_COLOR: Record<ToolStatus, string> = {
  pending: 'yellow',
  running: 'cyan',
  done: 'green',
  error: 'red',
  rejected: 'yellow',
};

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
export const SPINNER_INTERVAL_MS = 80;

export const PATH_SEPARATOR = ' ▸ ';
