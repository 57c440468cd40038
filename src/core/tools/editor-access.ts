/**
 * What an editor lends the tools when adk runs inside it (`adk acp`): its view of files (unsaved
 * buffers included, and edits applied through it so they can be undone there) and its terminals.
 * A face passes it as the run's tool option `editor`; the built-in file tools and shell use it
 * after their own checks (the path is still located inside the workspace first). Absent: the disk.
 */
export interface EditorAccess {
  /** The file's text as the editor has it (absolute path). */
  readTextFile?(path: string): Promise<string>;
  /**
   * Writes the file through the editor (absolute path). Not used by the built-in tools: an editor
   * writes by path, so adk writes itself through verified descriptors and the editor reloads.
   */
  writeTextFile?(path: string, content: string): Promise<void>;
  /**
   * Runs a command in one of the editor's terminals, shown there as it runs. Only offered for
   * commands adk would run without its sandbox anyway: the editor's terminal is no weaker then.
   */
  runCommand?(request: EditorCommand): Promise<EditorCommandResult>;
}

export interface EditorCommand {
  command: string;
  cwd: string;
  /** The tool call this command belongs to: the face shows the terminal on that call. */
  callId: string;
  env: Record<string, string>;
  outputByteLimit: number;
  signal: AbortSignal;
}

export interface EditorCommandResult {
  output: string;
  truncated: boolean;
  exitCode: number | null;
  signal: string | null;
}

/** The run's tool option that carries an EditorAccess. */
export const EDITOR_OPTION = 'editor';

/** The editor lent to this call's tools, if any. */
export function editorAccess(options: Readonly<Record<string, unknown>> | undefined): EditorAccess | undefined {
  const e = options?.[EDITOR_OPTION];
  return e && typeof e === 'object' ? (e as EditorAccess) : undefined;
}
