import { describeCause } from '../../core/store/errors.js';

interface Emitter {
  on(event: string, listener: (...args: never[]) => void): unknown;
}

/**
 * Every error event of one process's Redis clients (ioredis connections, BullMQ queues, workers and
 * queue events) as one log line per outage, never a stack: without a listener BullMQ prints each
 * failed reconnect with `console.error`, and ioredis would crash the process. Operations still fail
 * through their own promises; this only says the connection is gone, once, and when it is back.
 */
export class RedisOutageLog {
  private down = false;

  constructor(private readonly log: (line: string) => void) {}

  /** Errors of `emitter` count as the outage; `ready` (ioredis connections only) ends it. */
  watch<T extends Emitter>(emitter: T): T {
    emitter.on('error', (e: unknown) => this.failed(e));
    emitter.on('ready', () => this.ready());
    return emitter;
  }

  private failed(e: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log(`Redis unreachable (${oneLine(describeCause(e))}); reconnecting`);
  }

  private ready(): void {
    if (!this.down) return;
    this.down = false;
    this.log('Redis reachable again');
  }
}

/** A message as one printable line (Redis errors can carry the server's own text). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, 300);
}
