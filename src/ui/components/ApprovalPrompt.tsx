import { sanitizeText } from '../text/sanitize.js';
import { Box, Text } from 'ink';
import { useState } from 'react';
import { KeyHints, PromptFrame } from './PromptFrame.js';
import { useKeys } from '../hooks/use-keys.js';
import { useKeyGuard } from '../hooks/key-guard.js';
import { useMode } from '../hooks/use-mode.js';
import { useTextField } from '../hooks/use-text-field.js';
import { useScrollWindow } from '../hooks/use-scroll-window.js';
import { EditorView } from './EditorView.js';
import { editorRows } from '../input/editor-rows.js';
import { readableArgs } from '../text/readable-args.js';
import { approvalMenu, type MenuChoice } from './approval-menu.js';

export type ApprovalChoice =
  | { approved: true }
  /** Approve, and approve this tool without asking for the rest of the session. */
  | { approved: true; always: true }
  | { approved: true; arguments: unknown }
  /** Approve, and save a rule so calls like it run unasked in this folder (the host derives and saves it). */
  | { approved: true; remember: true }
  | { approved: false; reason?: string };

export interface ApprovalPromptProps {
  agent?: string;
  tool: string;
  arguments: unknown;
  message?: string;
  /** The call started before adk stopped: it may have run already. */
  mayHaveRun?: boolean;
  /** The tool asks before every call here (shell without its sandbox): no "always allow", no rule. */
  alwaysAsks?: boolean;
  width: number;
  counter?: string;
  /** Argument lines shown before the rest is folded. */
  maxArgLines?: number;
  /** What the call would change (a unified diff): shown coloured instead of the arguments. */
  diff?: string;
  /** A short terminal: the menu's choices as key hints only, without the numbered list. */
  compact?: boolean;
  onDecision: (choice: ApprovalChoice) => void;
}

/** A unified diff as the approval box shows it: wrapped to the box, added lines green, removed red, hunks cyan. */
export function diffRows(diff: string, width: number): Array<{ text: string; color?: string }> {
  const inner = Math.max(10, width - 4);
  return sanitizeText(diff)
    .split('\n')
    .flatMap((line) => {
      const color = line.startsWith('+++') || line.startsWith('---') ? undefined : line.startsWith('+') ? 'green' : line.startsWith('-') ? 'red' : line.startsWith('@@') ? 'cyan' : undefined;
      return editorRows(line, 0, inner).rows.map((r) => ({ text: r.text, ...(color ? { color } : {}) }));
    });
}

/** The approval box's argument rows: readable arguments hard-wrapped to the box's inner width. */
export function argRows(args: unknown, width: number): string[] {
  return editorRows(readableArgs(args), 0, Math.max(10, width - 4)).rows.map((r) => r.text);
}

/** Arguments as indented JSON (what `e` edits). Parsing can bring back control characters the text escaped: sanitised again. */
export function prettyArgs(args: unknown): string {
  return sanitizeText(prettyJson(args));
}

function prettyJson(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args ?? {}, null, 2) ?? String(args);
}

/**
 * A tool call waiting for approval: the numbered menu (↑/↓ and Enter, or 1–4: yes, yes and save a
 * rule for calls like it in this folder, no and tell the model what to do instead, edit), and the
 * letters people already know: `y` once, `a` then `y` for the rest of the session, `n` reject (then
 * an optional reason), `e` edit the arguments as JSON.
 */
export function ApprovalPrompt({ agent, tool, arguments: args, message, mayHaveRun, alwaysAsks, width, counter, maxArgLines = 12, diff, compact, onDecision }: ApprovalPromptProps) {
  const [mode, setMode, currentMode] = useMode<'menu' | 'reason' | 'edit' | 'always'>('menu');
  const guard = useKeyGuard();
  // The numbered menu (1 yes, 2 yes and remember, 3 no and say why, 4 edit), chosen by digit or ↑/↓ and Enter.
  const options = approvalMenu(tool, args, mayHaveRun === true, alwaysAsks === true);
  // "Always allow" is offered only where it would hold: not for a call that may have run, nor for a tool that asks every time.
  const offersAlways = !mayHaveRun && !alwaysAsks;
  const [selected, setSelected] = useState(0);
  const [error, setError] = useState<string>();
  const pretty = prettyArgs(args);
  // What the call will do, wrapped to the box and scrolled with ↑/↓: every row can be read before `y`.
  const rows: Array<{ text: string; color?: string }> = diff ? diffRows(diff, width) : argRows(args, width).map((text) => ({ text }));
  const page = Math.max(1, maxArgLines);
  const { top, scrollKey } = useScrollWindow(rows.length, page);
  const shown = rows.slice(top, top + page);

  const reason = useTextField({
    onSubmit: (text) => onDecision(text.trim() ? { approved: false, reason: text.trim() } : { approved: false }),
    onCancel: () => setMode('menu'),
  });
  const edit = useTextField({
    initialValue: pretty,
    onChange: () => setError(undefined),
    onSubmit: (text) => {
      try {
        onDecision({ approved: true, arguments: JSON.parse(text) });
      } catch (e) {
        setError(`invalid JSON: ${(e as Error).message}`);
      }
    },
    onCancel: () => {
      setError(undefined);
      setMode('menu');
    },
  });

  // One listener for every mode: the menu's hotkeys, or the field being typed in.
  useKeys((input, key) => {
    if (currentMode() === 'reason') return reason.onKey(input, key);
    if (currentMode() === 'edit') return edit.onKey(input, key);
    // Esc at the menu says no (as in Claude Code); in the other modes it goes back to the menu. (Ink marks Esc as meta.)
    if (key.escape) return currentMode() === 'menu' ? onDecision({ approved: false }) : setMode('menu');
    if (key.ctrl || key.meta) return;
    if (currentMode() === 'menu') {
      const choose = (c: MenuChoice | undefined) => {
        if (!c?.enabled) return;
        if (c.id === 'yes') onDecision({ approved: true });
        else if (c.id === 'remember') onDecision({ approved: true, remember: true });
        else if (c.id === 'no') setMode('reason');
        else setMode('edit');
      };
      const enabled = options.filter((o) => o.enabled);
      const at = enabled.indexOf(options[selected]!);
      if (!compact && (key.upArrow || key.downArrow)) return setSelected(options.indexOf(enabled[(at + (key.upArrow ? enabled.length - 1 : 1)) % enabled.length]!));
      if (key.return) return choose(options[selected]);
      const digit = /^[1-4]$/.test(input) ? options.find((o) => o.key === input) : undefined;
      if (digit) return choose(digit);
    }
    // ↑/↓ choose in the full menu; PgUp/PgDn (and ↑/↓ in the compact one) read the arguments.
    if ((compact || (!key.upArrow && !key.downArrow)) && scrollKey(key)) return;
    const k = input.toLowerCase();
    // "Always" is a second, deliberate step: one stray `a` must not open a tool for the whole session.
    if (currentMode() === 'always') {
      if (k === 'y') onDecision({ approved: true, always: true });
      else if (k === 'n' || key.escape) setMode('menu');
      return;
    }
    if (k === 'y') onDecision({ approved: true });
    else if (k === 'a' && offersAlways) {
      // The confirmation is a prompt of its own: keys typed right after `a` do not answer it.
      guard?.rearm();
      setMode('always');
    }
    else if (k === 'n') setMode('reason');
    else if (k === 'e') setMode('edit');
  });

  return (
    <PromptFrame agent={agent} title={`wants to run ${tool}`} color="yellow" width={width} counter={counter}>
      {mayHaveRun && message ? <Text color="red">{`⚠ ${message}`}</Text> : null}
      {/* Why it asks although a grant would cover it (the core says so in the message; its rows are counted in estimatePromptRows). */}
      {alwaysAsks && !mayHaveRun && message ? <Text color="yellow">{sanitizeText(message)}</Text> : null}
      {mode !== 'edit' ? (
        <Box flexDirection="column" marginY={1}>
          {shown.map((row, i) => (
            <Text key={top + i} dimColor={!row.color} color={row.color} wrap="truncate-end">
              {row.text || ' '}
            </Text>
          ))}
          {rows.length > shown.length ? <Text color="yellow">{`rows ${top + 1}–${top + shown.length} of ${rows.length} · PgUp/PgDn to read the rest`}</Text> : null}
        </Box>
      ) : null}
      {mode === 'menu' && compact ? (
        <KeyHints
          hints={[
            ['y', mayHaveRun ? 'run it again' : 'approve once'],
            ...(options[1]!.enabled ? ([['2', 'allow like this here']] as Array<[string, string]>) : []),
            ['n', 'reject'],
            ['e', 'edit args'],
            ...(offersAlways ? ([['a', `always allow ${tool}…`]] as Array<[string, string]>) : []),
          ]}
        />
      ) : null}
      {mode === 'menu' && !compact ? (
        <Box flexDirection="column">
          {options.map((o, i) => (
            <Text key={o.key} color={i === selected ? 'cyan' : undefined} dimColor={!o.enabled} wrap="truncate-end">
              {`${i === selected ? '❯' : ' '} ${o.key}. ${o.label}`}
            </Text>
          ))}
          <KeyHints
            hints={
              mayHaveRun
                ? [['↑/↓ Enter', 'choose'], ['y', 'run it again'], ['n', 'reject'], ['e', 'edit args'], ['Esc', 'reject']]
                : [['↑/↓ Enter', 'choose'], ['y', 'approve once'], ...(offersAlways ? ([['a', `always allow ${tool}…`]] as Array<[string, string]>) : []), ['n', 'reject'], ['e', 'edit args'], ['Esc', 'reject']]
            }
          />
        </Box>
      ) : null}
      {mode === 'always' ? (
        <Box flexDirection="column">
          <Text color="yellow">{`Run ${tool} without asking for the rest of this session? Only this session: /new and other sessions still ask.`}</Text>
          <KeyHints hints={[['y', `yes, always allow ${tool} here`], ['n', 'back']]} />
        </Box>
      ) : null}
      {mode === 'reason' ? (
        <Box flexDirection="column">
          <Text dimColor>Why not? What should the model do instead? (optional; Enter rejects and tells it, Esc goes back)</Text>
          <EditorView state={reason.state} prompt="reason › " promptColor="yellow" width={width - 4} maxRows={3} />
        </Box>
      ) : null}
      {mode === 'edit' ? (
        <Box flexDirection="column" marginTop={1}>
          <Text dimColor>Edit the arguments (JSON). Enter approves, Ctrl-J adds a line, Esc goes back.</Text>
          <EditorView state={edit.state} width={width - 4} maxRows={page + 2} />
          {error ? <Text color="red">{error}</Text> : null}
        </Box>
      ) : null}
    </PromptFrame>
  );
}
