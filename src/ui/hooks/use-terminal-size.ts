import { useStdout } from 'ink';
import { useEffect, useState } from 'react';
import { TERMINAL_SIZE, type TerminalSize, type TerminalSizeSource } from '../app/ink-stdout.js';

export type { TerminalSize } from '../app/ink-stdout.js';

/**
 * The terminal size, following resizes. Presentational components get sizes as props instead.
 * Under `inkStdout` the real size comes from its source (Ink itself is told another height).
 */
export function useTerminalSize(fallback: TerminalSize = { columns: 80, rows: 24 }): TerminalSize {
  const { stdout } = useStdout();
  const source = (stdout as unknown as { [TERMINAL_SIZE]?: TerminalSizeSource })[TERMINAL_SIZE];
  const read = (): TerminalSize => {
    const s = source?.read() ?? { columns: stdout.columns, rows: stdout.rows };
    return { columns: s.columns || fallback.columns, rows: s.rows || fallback.rows };
  };
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    if (source) return source.subscribe(onResize);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
