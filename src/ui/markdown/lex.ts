import { Lexer, type Token } from 'marked';

const recent = new Map<string, Token[]>();

/**
 * Block tokens of a markdown text (GitHub flavour: tables, task lists, strikethrough). The last few
 * are kept: the live tail lexes each frame's text once to size it and once to draw it.
 */
export function lexMarkdown(text: string): Token[] {
  const known = recent.get(text);
  if (known) return known;
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).lex(text);
  } catch {
    tokens = [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
  }
  if (recent.size >= 8) recent.delete(recent.keys().next().value!);
  recent.set(text, tokens);
  return tokens;
}

/** The text of inline tokens without any styling (for measuring table cells). */
export function plainText(tokens: Token[] | undefined, fallback = ''): string {
  if (!tokens) return fallback;
  return tokens
    .map((t) => {
      if (t.type === 'br') return ' ';
      if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length) return plainText(t.tokens as Token[]);
      return 'text' in t && typeof t.text === 'string' ? t.text : '';
    })
    .join('');
}
