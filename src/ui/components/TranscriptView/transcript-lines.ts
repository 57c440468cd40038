import { readableArgs } from '../../text/readable-args.js';
import { sanitizeText } from '../../text/sanitize.js';
import { thoughtDuration } from '../items/Thought.js';
import type { TranscriptItem } from '../../state/transcript.js';

/** Lines of a tool result shown while it is folded. */
export const FOLDED_RESULT_LINES = 3;

const GLYPH: Record<string, string> = { done: '✓', error: '✗', rejected: '⊘', pending: '…', running: '…' };

/**
 * One transcript item as plain lines for the transcript view (Ctrl-O): thinking is one line until
 * expanded, a long tool result shows its first lines until expanded. Text from models, tools and
 * files is sanitized (no escape sequence reaches the terminal).
 */
export function itemLines(item: TranscriptItem, expanded: boolean): { lines: string[]; foldable: boolean } {
  const clean = (s: string) => sanitizeText(s).split('\n');
  switch (item.kind) {
    case 'user':
      return { lines: clean(item.text).map((l, i) => (i === 0 ? `› ${l}` : `  ${l}`)), foldable: false };
    case 'assistant':
      return { lines: [...(item.showHeader ? [`● ${sanitizeText(item.agent)}`] : []), ...clean(item.text).map((l) => `  ${l}`)], foldable: false };
    case 'thought': {
      const head = `✻ Thought${item.ms === undefined ? '' : ` for ${thoughtDuration(item.ms)}`} (${sanitizeText(item.agent)})`;
      return { lines: expanded ? [head, ...clean(item.text).map((l) => `  ${l}`)] : [`${head} ▸`], foldable: true };
    }
    case 'tool': {
      const c = item.call;
      let args = '';
      try {
        args = readableArgs(JSON.parse(c.args || '{}'));
      } catch {
        args = c.args;
      }
      const head = `${GLYPH[c.status] ?? '•'} ${sanitizeText(c.name)}${c.edited ? ' (edited)' : ''} ${sanitizeText(args).replace(/\s+/g, ' ')}`;
      const result = c.result === undefined ? [] : clean(c.result.replace(/\n+$/, ''));
      const foldable = result.length > FOLDED_RESULT_LINES;
      const shown = expanded || !foldable ? result : result.slice(0, FOLDED_RESULT_LINES);
      const body = shown.map((l, i) => `${i === 0 ? '  ⎿ ' : '    '}${l}`);
      if (foldable && !expanded) body.push(`    … +${result.length - FOLDED_RESULT_LINES} lines ▸`);
      return { lines: [head, ...body], foldable };
    }
    case 'transfer':
      return { lines: [`↳ ${sanitizeText(item.from)} → ${sanitizeText(item.to)}`], foldable: false };
    case 'retry':
      return { lines: [`↻ ${sanitizeText(item.agent)}: attempt ${item.attempt} failed: ${sanitizeText(item.error)}`], foldable: false };
    case 'error':
      return { lines: clean(`✗ ${item.text}`), foldable: false };
    case 'info':
      return { lines: clean(item.text), foldable: false };
  }
}
