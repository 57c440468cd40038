import { Lexer, type Token } from 'marked';

/** Block tokens of a markdown text (GitHub flavour: tables, task lists, strikethrough). */
export function lexMarkdown(text: string): Token[] {
  try {
    return new Lexer({ gfm: true }).lex(text);
  } catch {
    return [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
  }
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
