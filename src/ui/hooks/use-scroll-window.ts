import type { Key } from 'ink';
import { useState } from 'react';

/**
 * A window of `page` rows over `total`, scrolled by ↑/↓ (a row) and PgUp/PgDn (a page): the first
 * row shown, and a key handler that returns true when it took the key.
 */
export function useScrollWindow(total: number, page: number): { top: number; scrollKey: (key: Key) => boolean } {
  const [scroll, setScroll] = useState(0);
  const last = Math.max(0, total - page);
  const top = Math.min(scroll, last);
  const scrollKey = (key: Key): boolean => {
    if (!(key.upArrow || key.downArrow || key.pageUp || key.pageDown)) return false;
    const step = key.pageUp || key.pageDown ? page : 1;
    setScroll(Math.max(0, Math.min(last, top + (key.upArrow || key.pageUp ? -step : step))));
    return true;
  };
  return { top, scrollKey };
}
