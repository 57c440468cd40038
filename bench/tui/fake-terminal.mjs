// A fake TTY for Ink: counts frames (writes) and bytes, and spots full-screen clears.
import { EventEmitter } from 'node:events';

// Erase display / erase scrollback / full reset: what a redraw-everything renderer sends.
const FULL_CLEAR = /\x1b\[2J|\x1b\[3J|\x1bc/;

export class FakeStdout extends EventEmitter {
  isTTY = true;
  /** Terminal updates: writes made in the same turn of the event loop count as one frame. */
  frames = 0;
  writes = 0;
  #inFrame = false;
  bytes = 0;
  fullClears = 0;
  last = '';

  constructor(columns, rows) {
    super();
    this.columns = columns;
    this.rows = rows;
  }

  write(data, encoding, callback) {
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    this.writes++;
    if (!this.#inFrame) {
      this.#inFrame = true;
      this.frames++;
      setImmediate(() => (this.#inFrame = false));
    }
    this.bytes += Buffer.byteLength(text);
    if (FULL_CLEAR.test(text)) this.fullClears++;
    this.last = text;
    this.emit('frame');
    const cb = typeof encoding === 'function' ? encoding : callback;
    cb?.();
    return true;
  }

  /** Resolves at the next write. */
  nextFrame() {
    return new Promise((resolve) => this.once('frame', resolve));
  }
}

/** The stdin Ink expects: raw mode, 'readable' then read(). */
export class FakeStdin extends EventEmitter {
  isTTY = true;
  data = null;
  write(data) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
