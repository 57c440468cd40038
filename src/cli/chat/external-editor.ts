import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellEnvironment } from '../../core/tools/builtin/shell.js';
import { releaseTerminal, type FrameHandOver } from './hand-terminal.js';

/**
 * Ctrl-G: the message in $VISUAL / $EDITOR (default vi), with the terminal handed over while it
 * runs; returns the saved text, or undefined when the editor failed. The editor gets the shell's
 * allow-listed environment (never API keys) plus the variables editors read.
 */
export function editInEditor(text: string, frame: FrameHandOver): string | undefined {
  const editor = process.env.VISUAL?.trim() || process.env.EDITOR?.trim() || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'adk-edit-'));
  const file = join(dir, 'message.md');
  writeFileSync(file, text, { mode: 0o600 });
  frame.hide();
  const reclaim = releaseTerminal();
  try {
    const r = spawnSync('sh', ['-c', `${editor} "$1"`, 'adk-editor', file], {
      stdio: 'inherit',
      env: shellEnvironment(process.env, ['EDITOR', 'VISUAL', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_CONFIG_HOME', 'XDG_RUNTIME_DIR', 'COLORTERM']),
    });
    return r.status === 0 ? readFileSync(file, 'utf8') : undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    reclaim();
    frame.show();
  }
}
