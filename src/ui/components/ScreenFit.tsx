import { Box, measureElement, Text, type DOMElement } from 'ink';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface ScreenFitProps {
  /** The rows it may take (the screen's rows less the cursor's row and what sits above it). */
  maxRows: number;
  width: number;
  children: ReactNode;
}

/**
 * Keeps what it holds within `maxRows` (as gemini-cli's MaxSizedBox does): when its content would be
 * taller, its top rows are cut and a note says so, so the keys and the status line at the bottom stay
 * in view. A live area taller than the screen leaves copies of itself in the scrollback at every
 * frame (and made Ink clear the terminal), so on a tiny window cutting is the lesser evil. The
 * content's own height is measured after each frame.
 */
export function ScreenFit({ maxRows, width, children }: ScreenFitProps) {
  const inner = useRef<DOMElement>(null);
  const [natural, setNatural] = useState(0);
  useLayoutEffect(() => {
    if (!inner.current) return;
    const h = measureElement(inner.current).height;
    if (h !== natural) setNatural(h);
  });
  const rows = Math.max(2, maxRows);
  const cut = natural > rows;
  return (
    <Box flexDirection="column" width={width}>
      {cut ? <Text dimColor wrap="truncate-end">{`↑ ${natural - rows + 1} rows cut: the window is too small`}</Text> : null}
      <Box flexDirection="column" height={cut ? rows - 1 : undefined} overflowY={cut ? 'hidden' : 'visible'} justifyContent="flex-end">
        <Box ref={inner} flexDirection="column" flexShrink={0}>
          {children}
        </Box>
      </Box>
    </Box>
  );
}
