import { memo, useMemo } from 'react';
import { Blocks } from '../markdown/Blocks.js';
import { lexMarkdown } from '../markdown/lex.js';

export interface MarkdownProps {
  text: string;
  /** Columns available; code blocks and tables are laid out to fit. */
  width: number;
}

/** Markdown rendered as Ink elements (headings, emphasis, lists, quotes, links, tables, highlighted code). */
export const Markdown = memo(function Markdown({ text, width }: MarkdownProps) {
  const tokens = useMemo(() => lexMarkdown(text), [text]);
  return <Blocks tokens={tokens} width={width} />;
});
