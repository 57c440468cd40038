import { Text } from 'ink';
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';

/** Inline markdown as nested Ink <Text>: bold, italic, code, links, strikethrough. */
export function renderInline(tokens: Token[] | undefined, fallback = ''): ReactNode[] {
  if (!tokens) return [fallback];
  return tokens.map((t, i) => inlineToken(t, i));
}

function inlineToken(token: Token, key: number): ReactNode {
  const t = token as Tokens.Generic;
  const children = () => renderInline(t.tokens as Token[] | undefined, typeof t.text === 'string' ? t.text : '');
  switch (t.type) {
    case 'text':
      return t.tokens?.length ? <Text key={key}>{children()}</Text> : (t.text as string);
    case 'escape':
      return t.text as string;
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
          {t.text as string}
        </Text>
      );
    case 'br':
      return '\n';
    case 'link': {
      const label = t.text as string;
      const href = t.href as string;
      return (
        <Text key={key}>
          <Text color="blue" underline>
            {children()}
          </Text>
          {href && href !== label && href !== `mailto:${label}` ? <Text dimColor>{` (${href})`}</Text> : null}
        </Text>
      );
    }
    case 'image':
      return (
        <Text key={key} dimColor>
          {`[image: ${(t.text as string) || (t.href as string)}]`}
        </Text>
      );
    default:
      return typeof t.text === 'string' ? t.text : t.raw;
  }
}
