import { useCallback, useLayoutEffect, useRef, useState, type UIEventHandler } from 'react';

/** How close to the bottom still counts as reading the newest output. */
const NEAR_BOTTOM_PX = 48;

const gap = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight;

/**
 * Keeps a scroll box at its bottom while new output arrives, until the reader scrolls up; scrolling
 * back down (or `jump`) follows again. `content` changes whenever the output does.
 */
export function useAutoscroll<T extends HTMLElement>(content: unknown, resetKey: unknown) {
  const ref = useRef<T>(null);
  const following = useRef(true);
  // Where this hook last scrolled to: a box now above it was scrolled up by the reader, even if
  // the scroll event (which comes a frame later) has not told yet.
  const placed = useRef(0);
  const [pinned, setPinned] = useState(true);

  const follow = useCallback((on: boolean) => {
    following.current = on;
    setPinned(on);
  }, []);
  const toBottom = (el: HTMLElement) => {
    el.scrollTop = el.scrollHeight;
    placed.current = el.scrollTop;
  };
  const onScroll: UIEventHandler<T> = useCallback((e) => follow(gap(e.currentTarget) < NEAR_BOTTOM_PX), [follow]);
  const jump = useCallback(() => {
    follow(true);
    if (ref.current) toBottom(ref.current);
  }, [follow]);

  // Another session opened: follow its output from the start.
  useLayoutEffect(() => {
    placed.current = 0;
    follow(true);
  }, [resetKey, follow]);
  const settle = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // Everything fits again (a taller window, a folded row): nothing is left to jump to.
    if (!following.current) return gap(el) < NEAR_BOTTOM_PX ? follow(true) : undefined;
    if (el.scrollTop < placed.current - 2 && gap(el) >= NEAR_BOTTOM_PX) return follow(false);
    toBottom(el);
  }, [follow]);
  useLayoutEffect(settle, [content, resetKey, settle]);
  // The box resized (window, todo panel) without new output: the same rules.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => settle());
    observer.observe(el);
    return () => observer.disconnect();
  }, [settle]);

  return { ref, onScroll, pinned, jump };
}
