import { Text } from 'ink';
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';
import { decodeHTML } from 'entities';
import { sanitizeText } from '../text/sanitize.js';
import { breakParts, lineBreaks } from '../text/wrap.js';

/** Maps each piece of text, in reading order. */
type Leaf = (text: string) => string;
const asIs: Leaf = (text) => text;

/** Inline markdown as nested Ink <Text>: bold, italic, code, links, strikethrough. */
export function renderInline(tokens: Token[] | undefined, fallback = '', leaf: Leaf = asIs): ReactNode[] {
  if (!tokens) return [leaf(fallback)];
  return tokens.map((t, i) => inlineToken(t, i, leaf));
}

/**
 * Inline markdown already word-wrapped at `width` columns, so Ink need not wrap it (its wrapper
 * costs more than the rest of a streaming frame).
 */
export function renderInlineWrapped(tokens: Token[] | undefined, fallback: string, width: number): ReactNode[] {
  const [nodes, plain] = renderCollecting(tokens, fallback);
  const breaks = lineBreaks(plain, width);
  return breaks.length ? renderInline(tokens, fallback, breakParts(breaks)) : nodes;
}

/** The text inline markdown shows, without styles. */
export function inlinePlain(tokens: Token[] | undefined, fallback: string): string {
  return renderCollecting(tokens, fallback)[1];
}

function renderCollecting(tokens: Token[] | undefined, fallback: string): [ReactNode[], string] {
  let plain = '';
  const nodes = renderInline(tokens, fallback, (text) => ((plain += text), text));
  return [nodes, plain];
}

function inlineToken(token: Token, key: number, leaf: Leaf): ReactNode {
  const t = token as Tokens.Generic;
  const children = () => renderInline(t.tokens as Token[] | undefined, typeof t.text === 'string' ? t.text : '', leaf);
  switch (t.type) {
    case 'text':
      // Markdown text decodes entity references (`&amp;` is &); code spans keep them as written.
      return t.tokens?.length ? <Text key={key}>{children()}</Text> : leaf(sanitizeText(decodeHTML(t.text as string)));
    case 'escape':
      return leaf(t.text as string);
    case 'strong':
      return (
        <Text key={key} bold>
          {children()}
        </Text>
      );
    case 'em':
      return (
        <Text key={key} italic>
          {children()}
        </Text>
      );
    case 'del':
      return (
        <Text key={key} strikethrough>
          {children()}
        </Text>
      );
    case 'codespan':
      return (
        <Text key={key} color="yellow">
          {leaf(t.text as string)}
        </Text>
      );
    case 'br':
      return leaf('\n');
    case 'link': {
      const label = t.text as string;
      const href = t.href as string;
      return (
        <Text key={key}>
          <Text color="blue" underline>
            {children()}
          </Text>
          {href && href !== label && href !== `mailto:${label}` ? <Text dimColor>{leaf(` (${href})`)}</Text> : null}
        </Text>
      );
    }
    case 'image':
      return (
        <Text key={key} dimColor>
          {leaf(`[image: ${(t.text as string) || (t.href as string)}]`)}
        </Text>
      );
    default:
      return leaf(typeof t.text === 'string' ? t.text : t.raw);
  }
}
