import { Box, Text } from 'ink';
import type { Token, Tokens } from 'marked';
import { memo, type ReactNode } from 'react';
import { CodeBlock } from './CodeBlock.js';
import { renderInlineWrapped } from './Inline.js';
import { Table } from './Table.js';

export interface BlocksProps {
  tokens: Token[];
  width: number;
  /** Blank rows between blocks: 1 at the top level and in loose lists, 0 in tight lists. */
  gap?: number;
  depth?: number;
}

const BULLETS = ['•', '◦', '▪'];

/** Block-level markdown as Ink boxes. */
export function Blocks({ tokens, width, gap = 1, depth = 0 }: BlocksProps) {
  const blocks = tokens.filter((t) => t.type !== 'space' && t.type !== 'def');
  return (
    <Box flexDirection="column" width={Math.max(1, width)}>
      {blocks.map((t, i) => (
        <Box key={i} marginTop={i > 0 ? gap : 0} flexDirection="column">
          <Block token={t} width={width} depth={depth} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * One block, drawn again only when its source changes: a streaming tail is lexed anew every frame,
 * but only its last block is new.
 */
const Block = memo(
  function Block({ token, width, depth }: { token: Token; width: number; depth: number }) {
    return block(token, width, depth);
  },
  (a, b) => a.token.type === b.token.type && a.token.raw === b.token.raw && a.width === b.width && a.depth === b.depth,
);

function block(token: Token, width: number, depth: number): ReactNode {
  const t = token as Tokens.Generic;
  switch (t.type) {
    case 'heading':
      return (
        <Text bold underline={t.depth === 1} color={t.depth <= 2 ? 'cyan' : undefined}>
          {renderInlineWrapped(t.tokens as Token[], t.text as string, width)}
        </Text>
      );
    case 'paragraph':
    case 'text':
      return <Text>{renderInlineWrapped(t.tokens as Token[] | undefined, t.text as string, width)}</Text>;
    case 'code':
      return <CodeBlock code={t.text as string} lang={t.lang as string | undefined} width={width} />;
    case 'list':
      return <List token={token as Tokens.List} width={width} depth={depth} />;
    case 'blockquote':
      return (
        <Box borderStyle="single" borderTop={false} borderRight={false} borderBottom={false} borderDimColor paddingLeft={1}>
          <Blocks tokens={t.tokens as Token[]} width={width - 2} depth={depth} />
        </Box>
      );
    case 'table':
      return <Table token={token as Tokens.Table} width={width} />;
    case 'hr':
      return <Text dimColor>{'─'.repeat(Math.max(1, Math.min(width, 80)))}</Text>;
    default:
      return <Text>{(typeof t.text === 'string' ? t.text : t.raw).replace(/\n+$/, '')}</Text>;
  }
}

function List({ token, width, depth }: { token: Tokens.List; width: number; depth: number }) {
  const start = typeof token.start === 'number' ? token.start : 1;
  const markers = token.items.map((_, i) => (token.ordered ? `${start + i}.` : BULLETS[depth % BULLETS.length]));
  const markerWidth = Math.max(...markers.map((m) => m.length)) + 1;
  return (
    <Box flexDirection="column">
      {token.items.map((item, i) => (
        <Box key={i} flexDirection="row" marginTop={i > 0 && token.loose ? 1 : 0}>
          <Box width={markerWidth} flexShrink={0}>
            <Text dimColor={!token.ordered}>{markers[i]}</Text>
          </Box>
          {item.task ? <Text>{item.checked ? '☑ ' : '☐ '}</Text> : null}
          <Blocks tokens={item.tokens} width={width - markerWidth - (item.task ? 2 : 0)} gap={item.loose ? 1 : 0} depth={depth + 1} />
        </Box>
      ))}
    </Box>
  );
}
