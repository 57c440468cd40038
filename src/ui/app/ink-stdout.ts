/** A terminal's size in cells. */
export interface TerminalSize {
  columns: number;
  rows: number;
}

/** Where the app reads the real terminal size when Ink is given `inkStdout` (see useTerminalSize). */
export const TERMINAL_SIZE = Symbol.for('adk.terminalSize');

export interface TerminalSizeSource {
  read(): TerminalSize;
  subscribe(onResize: () => void): () => void;
}

/** Rows Ink is told the terminal has: more than any frame, so its full-screen branch never runs. */
const ROWS_FOR_INK = 1_000_000;

const LISTEN = new Set<PropertyKey>(['on', 'addListener', 'once', 'prependListener', 'prependOnceListener']);
const UNLISTEN = new Set<PropertyKey>(['off', 'removeListener']);

/**
 * The stdout Ink renders to. Ink 6 clears the terminal and its scrollback (ESC[2J ESC[3J) and writes
 * the whole transcript again whenever its last frame was as tall as the screen, which is what a
 * shrinking window makes of any frame; and its own resize handler redraws before the app has
 * re-laid itself out for the new size. So Ink is told a screen too tall to fill and never hears of
 * resizes: the app follows the real size (through `TERMINAL_SIZE`) and keeps its live area below
 * the screen's height itself, and each of its re-renders redraws the live area in place.
 * Everything else is the real stream.
 */
export function inkStdout(real: NodeJS.WriteStream): NodeJS.WriteStream {
  const source: TerminalSizeSource = {
    read: () => ({ columns: real.columns || 80, rows: real.rows || 24 }),
    subscribe(onResize) {
      real.on('resize', onResize);
      return () => void real.off('resize', onResize);
    },
  };
  const proxy: NodeJS.WriteStream = new Proxy(real, {
    get(target, prop) {
      if (prop === TERMINAL_SIZE) return source;
      if (prop === 'rows') return target.isTTY ? ROWS_FOR_INK : target.rows;
      if (LISTEN.has(prop) || UNLISTEN.has(prop)) {
        const method = Reflect.get(target, prop, target) as (...a: unknown[]) => unknown;
        return (event: string | symbol, listener: (...a: unknown[]) => void) => {
          if (event !== 'resize') method.call(target, event, listener);
          return proxy;
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
}
