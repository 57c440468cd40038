import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { highlightCode } from './highlight.js';

export interface CodeBlockProps {
  code: string;
  lang?: string;
  width: number;
}

/** A fenced code block, indented and highlighted; no border, so copying it from the terminal stays clean. */
export function CodeBlock({ code, lang, width }: CodeBlockProps) {
  const text = useMemo(() => highlightCode(code, lang), [code, lang]);
  return (
    <Box flexDirection="column" paddingLeft={2} width={Math.max(4, width)}>
      <Text>{text}</Text>
    </Box>
  );
}
