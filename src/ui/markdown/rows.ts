import type { Token, Tokens } from 'marked';
import { lineBreaks } from '../text/wrap.js';
import { inlinePlain } from './Inline.js';
import { lexMarkdown } from './lex.js';

/**
 * The rows <Markdown> takes at `width` columns, following <Blocks> block by block (prose wraps
 * exactly as it is drawn). Sizes the live tail before Ink lays it out.
 */
export function markdownRows(text: string, width: number): number {
  return blocksRows(lexMarkdown(text), width, 1);
}

function blocksRows(tokens: Token[], width: number, gap: number): number {
  let rows = 0;
  let n = 0;
  for (const t of tokens) {
    if (t.type === 'space' || t.type === 'def') continue;
    rows += (n++ > 0 ? gap : 0) + blockRows(t, width);
  }
  return rows;
}

/** Rows of text wrapped at `width`: its own lines plus the breaks wrapping adds. */
function textRows(text: string, width: number): number {
  let rows = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) rows++;
  return rows + lineBreaks(text, width).length;
}

function blockRows(token: Token, width: number): number {
  const t = token as Tokens.Generic;
  switch (t.type) {
    case 'heading':
    case 'paragraph':
    case 'text':
      return textRows(inlinePlain(t.tokens as Token[] | undefined, t.text as string), Math.max(1, width));
    case 'code':
      // Indented by 2 inside a box at least 4 wide (CodeBlock).
      return textRows(t.text as string, Math.max(4, width) - 2);
    case 'list':
      return listRows(token as Tokens.List, width);
    case 'blockquote':
      return blocksRows(t.tokens as Token[], width - 2, 1);
    case 'table':
      return 2 + (token as Tokens.Table).rows.length;
    case 'hr':
      return 1;
    default:
      return textRows((typeof t.text === 'string' ? t.text : t.raw).replace(/\n+$/, ''), Math.max(1, width));
  }
}

function listRows(list: Tokens.List, width: number): number {
  const start = typeof list.start === 'number' ? list.start : 1;
  const markerWidth = list.ordered ? Math.max(...list.items.map((_, i) => `${start + i}.`.length)) + 1 : 2;
  let rows = 0;
  list.items.forEach((item, i) => {
    const body = blocksRows(item.tokens, width - markerWidth - (item.task ? 2 : 0), item.loose ? 1 : 0);
    rows += (i > 0 && list.loose ? 1 : 0) + Math.max(1, body);
  });
  return rows;
}
