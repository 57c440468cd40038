import { Box, Text, type Key } from 'ink';
import { sanitizeText } from '../text/sanitize.js';
import { useKeys } from '../hooks/use-keys.js';
import { useChangeCount, type ChangeSubscription } from '../hooks/use-change-count.js';
import { useMemo, useRef, useState } from 'react';
import { applyEditKey, normalizeNewlines } from '../input/apply-key.js';
import * as ed from '../input/editor.js';
import { atDraft, stepHistory, type HistoryCursor } from '../input/history.js';
import { lineCount, PASTE_END, PASTE_START, PasteStore } from '../input/paste.js';
import { commonPrefix, slashSuggestions, type SlashCommandInfo } from '../input/slash-commands.js';
import { EditorView } from './EditorView.js';
import { Suggestions } from './Suggestions.js';

export interface InputBoxProps {
  /** Earlier inputs, oldest first (the caller keeps and saves them). */
  history?: readonly string[];
  /** The text with pastes expanded. The caller adds it to the history. */
  onSubmit: (text: string, shown?: string) => void;
  /** Every change of the visible text (the app needs to know when it is empty, for Ctrl-D). */
  onChange?: (text: string) => void;
  commands?: readonly SlashCommandInfo[];
  isActive?: boolean;
  /** While a run is going, Enter queues the text (`onQueue`) instead of sending it; without `onQueue` it keeps it. */
  busy?: boolean;
  /** A message typed and entered while a run works: it is sent when the turn ends. */
  onQueue?: (text: string) => void;
  placeholder?: string;
  /** Pastes with at least this many lines show as `[Pasted text #1 +N lines]`. */
  pasteLineThreshold?: number;
  /** Text already typed (kept while a prompt had the keyboard). */
  initialText?: string;
  /** Columns the box may use; long lines wrap inside them. */
  width?: number;
  /** Rows the box may take (text and suggestions): a taller text shows a window around the cursor. */
  maxRows?: number;
  /** Tab after `@`: paths that complete the prefix. */
  completePath?: (prefix: string) => string[];
  /** Told when `completePath` may answer more than it did (MCP resources arrived): the picker searches again. */
  completionsChanged?: ChangeSubscription;
}

const SUGGESTIONS_MAX = 8;

interface TabCycle {
  base: string;
  index: number;
}

/**
 * The prompt: ↑/↓ history, `\`+Enter or Ctrl-J for a new line, bracketed paste (big pastes fold into
 * a placeholder), Tab completes slash commands. Ctrl-C, Ctrl-D and Esc are left to the app.
 */
export function InputBox({ history = [], onSubmit, onQueue, onChange, commands = [], isActive = true, busy = false, placeholder, pasteLineThreshold = 10, initialText, width, maxRows, completePath, completionsChanged }: InputBoxProps) {
  const [state, setState] = useState<ed.EditorState>(() => (initialText ? ed.editorAt(initialText) : ed.emptyEditor));
  const [cycle, setCycle] = useState<TabCycle>();
  // The live `@` picker's highlighted row (issue 32: suggestions follow every key, never stale).
  const [mentionSel, setMentionSelState] = useState(0);
  const mentionSelRef = useRef(0);
  const setMentionSel = (n: number) => {
    mentionSelRef.current = n;
    setMentionSelState(n);
  };
  // Ctrl-R: search the history, newest first (`from` is where the match was found).
  const [search, setSearchState] = useState<{ query: string; from: number; saved: ed.EditorState }>();
  const searching = useRef(search);
  const setSearch = (next: typeof search) => {
    searching.current = next;
    setSearchState(next);
  };
  /** The newest history entry at or before `from` containing `query` (case-insensitive). */
  const findMatch = (query: string, from: number): number => {
    const q = query.toLowerCase();
    for (let i = Math.min(from, history.length - 1); i >= 0; i--) if (history[i]!.toLowerCase().includes(q)) return i;
    return -1;
  };
  const searchKey = (input: string, key: Key): void => {
    const sr = searching.current!;
    if (key.escape) {
      set(sr.saved);
      return setSearch(undefined);
    }
    if (key.ctrl && input === 'r') {
      const at = findMatch(sr.query, sr.from - 1);
      if (at >= 0) setSearch({ ...sr, from: at });
      return;
    }
    if (key.backspace || key.delete) {
      const query = sr.query.slice(0, -1);
      return setSearch({ ...sr, query, from: Math.max(0, findMatch(query, history.length - 1)) });
    }
    if (input && !key.ctrl && !key.meta && !key.return && !key.tab && !/[\r\n]/.test(input)) {
      const query = sr.query + input;
      const at = findMatch(query, history.length - 1);
      return setSearch({ ...sr, query, from: at >= 0 ? at : sr.from });
    }
    // Enter, Tab, arrows: the match goes into the box to edit or send.
    const match = findMatch(sr.query, sr.from) === sr.from ? history[sr.from] : undefined;
    set(match !== undefined ? ed.editorAt(match) : sr.saved);
    setSearch(undefined);
  };
  const [hideSuggestions, setHideSuggestions] = useState(false);
  // Keys of one stdin chunk arrive before React re-renders: keep the latest values in refs.
  const current = useRef(state);
  const historyAt = useRef<HistoryCursor>(atDraft);
  const paste = useRef<{ buffer: string } | null>(null);
  const pastes = useRef(new PasteStore());

  const set = (next: ed.EditorState, keepCycle = false) => {
    const changed = next.text !== current.current.text;
    current.current = next;
    setState(next);
    if (!keepCycle) setCycle(undefined);
    if (changed) {
      setHideSuggestions(false);
      if (mentionSelRef.current) setMentionSel(0);
      onChange?.(next.text);
    }
  };

  const insertPaste = (raw: string) => {
    const text = normalizeNewlines(raw);
    set(ed.insert(current.current, lineCount(text) >= pasteLineThreshold ? pastes.current.add(text) : text));
  };

  const submit = () => {
    // `shown` keeps the paste labels: the transcript shows what the box showed, not 300 lines again.
    const shown = current.current.text;
    const text = pastes.current.expand(shown);
    if (!text.trim() || (busy && !onQueue)) return;
    pastes.current.clear();
    historyAt.current = atDraft;
    set(ed.emptyEditor);
    if (busy) onQueue!(text);
    else if (shown === text) onSubmit(text);
    else onSubmit(text, shown);
  };

  const suggestionBase = cycle?.base ?? state.text;
  // Computed from the text at every render, so the list always belongs to what is typed now.
  const mentionQuery = mentionQueryOf(state);
  const completionsVersion = useChangeCount(completionsChanged);
  const mentionItems = useMemo(() => (mentionQuery !== undefined && completePath ? completePath(mentionQuery) : []), [mentionQuery, completePath, completionsVersion]);
  const pathItems = mentionItems.map((p) => ({ name: `@${p}` }));
  const picking = !hideSuggestions && pathItems.length > 0;
  const suggestions = hideSuggestions ? [] : mentionQuery !== undefined && completePath ? pathItems : slashSuggestions(suggestionBase, commands);

  /** Tab on an `@` word: the highlighted match replaces what was typed after `@` (a folder stays open for more). */
  const completeMention = (): boolean => {
    const s = current.current;
    const query = mentionQueryOf(s);
    if (query === undefined || !completePath) return false;
    const matches = completePath(query);
    if (!matches.length) return true;
    const pick = matches[Math.min(mentionSelRef.current, matches.length - 1)]!;
    set(ed.insert(ed.deleteBefore(s, query.length), pick + (pick.endsWith('/') ? '' : ' ')));
    return true;
  };

  const complete = () => {
    if (completeMention()) return;
    const s = current.current;
    const base = cycle?.base ?? s.text;
    const matches = slashSuggestions(base, commands).map((c) => c.name);
    if (!matches.length) return;
    if (matches.length === 1) return set(ed.editorAt(`${matches[0]} `));
    const prefix = commonPrefix(matches);
    if (!cycle && prefix.length > s.text.length) return set(ed.editorAt(prefix));
    const index = cycle ? (cycle.index + 1) % matches.length : 0;
    set(ed.editorAt(matches[index]), true);
    setCycle({ base, index });
  };

  const browseHistory = (dir: 'older' | 'newer') => {
    const step = stepHistory(history, historyAt.current, current.current.text, dir);
    if (!step) return;
    historyAt.current = step.at;
    set(ed.editorAt(step.text));
  };

  const onKey = (input: string, key: Key) => {
    if (searching.current && !paste.current) return searchKey(input, key);
    if (key.ctrl && input === 'r' && history.length) return setSearch({ query: '', from: history.length - 1, saved: current.current });
    if (paste.current) {
      if (input === PASTE_END) {
        const text = paste.current.buffer;
        paste.current = null;
        return insertPaste(text);
      }
      paste.current.buffer += key.return ? '\n' : key.tab ? '\t' : input;
      return;
    }
    if (input === PASTE_START) {
      paste.current = { buffer: '' };
      return;
    }
    if (key.ctrl && (input === 'c' || input === 'd')) return;
    const s = current.current;
    if (key.return) {
      if (s.text.slice(0, s.cursor).endsWith('\\')) return set(ed.insert(ed.backspace(s), '\n'));
      // Alt-Enter, and Shift-Enter where the terminal reports it (kitty's CSI 13;2u): a new line.
      if (key.meta || key.shift) return set(ed.insert(s, '\n'));
      return submit();
    }
    // Ctrl-J arrives as a bare line feed.
    if (input === '\n') return set(ed.insert(s, '\n'));
    // A terminal without bracketed paste sends a paste as one chunk with its line breaks.
    if (input.length > 1 && /[\r\n]/.test(input)) return insertPaste(input);
    // Shift-Tab is the permission mode's key (use-mode-key), not completion.
    if (key.tab && key.shift) return;
    if (key.tab) return complete();
    if (key.escape) return setHideSuggestions(true);
    // While the `@` picker shows, ↑/↓ move its highlight.
    if (picking && (key.upArrow || key.downArrow)) return setMentionSel(Math.max(0, Math.min(mentionItems.length - 1, mentionSelRef.current + (key.upArrow ? -1 : 1))));
    if (key.upArrow) return ed.isOnFirstLine(s) ? browseHistory('older') : set(ed.verticalMove(s, -1));
    if (key.downArrow) return ed.isOnLastLine(s) ? browseHistory('newer') : set(ed.verticalMove(s, 1));
    if (key.backspace || key.delete) {
      const token = pastes.current.tokenAtEnd(s.text.slice(0, s.cursor));
      if (token) return set(ed.deleteBefore(s, token.length));
    }
    const next = applyEditKey(s, input, key);
    if (next) set(next);
  };

  useKeys(onKey, { isActive });

  // Suggestions get up to half of the rows; the text keeps at least three.
  const suggestionRows = maxRows === undefined ? SUGGESTIONS_MAX : Math.max(0, Math.min(SUGGESTIONS_MAX, Math.floor(maxRows / 2) - 1));
  const shownSuggestions = suggestions.length ? Math.min(suggestions.length, suggestionRows) + (suggestions.length > suggestionRows ? 1 : 0) : 0;
  const editorRows = maxRows === undefined ? undefined : Math.max(3, maxRows - shownSuggestions);
  if (search) {
    const at = findMatch(search.query, search.from);
    const match = at === search.from ? history[at] : undefined;
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">
          <Text color="cyan">{`search history › ${search.query}`}</Text>
          <Text inverse> </Text>
          <Text dimColor>{match !== undefined ? `  ${sanitizeText(match).replace(/\s+/g, ' ')}` : search.query ? '  (no match)' : ''}</Text>
        </Text>
        <Text dimColor>Ctrl-R older · Enter takes it · Esc cancels</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <EditorView state={state} prompt="› " promptColor={busy ? 'gray' : 'cyan'} placeholder={placeholder} focus={isActive} width={width} maxRows={editorRows} />
      {suggestionRows > 0 ? <Suggestions items={suggestions} selected={picking ? mentionSel : cycle?.index} max={suggestionRows} /> : null}
    </Box>
  );
}

/** What follows the `@` just before the cursor (`@src/he` → `src/he`), if the cursor ends such a word. */
function mentionQueryOf(s: ed.EditorState): string | undefined {
  return /(?:^|\s)@([^\s@]*)$/.exec(s.text.slice(0, s.cursor))?.[1];
}
