import { CancelledError, ModelTimeoutError } from '../errors.js';

/** Key under which a call's guard rides along in the SDK's `fetchOptions` to reach `probingFetch`. */
const GUARD = Symbol('adk.callGuard');

type StopReason = 'cancel' | 'request' | 'idle';

const DONE_TAIL = 32;
const latin1 = new TextDecoder('latin1');

/**
 * Owns one model request's lifetime: the caller's signal, the whole-request timeout and the idle timeout
 * (no bytes for `idleMs`). Any of them aborts the underlying HTTP request, and `stopError()` tells why.
 */
export class CallGuard {
  private readonly controller = new AbortController();
  private reason?: StopReason | undefined;
  private requestTimer?: NodeJS.Timeout | undefined;
  private idleTimer?: NodeJS.Timeout | undefined;
  private lastActivity = Date.now();
  private paused = false;
  private tail = new Uint8Array(0);
  private sawBytes = false;
  /** The body of an HTTP error response, as text: the SDK loses bodies without an `error` key. */
  errorBody?: string | undefined;

  /**
   * `patient`: the idle limit starts with the first byte of the body, so a local server that loads the
   * model or processes a long prompt before answering is bounded only by the request timeout.
   */
  constructor(
    private readonly parent: AbortSignal | undefined,
    private readonly timeoutMs: number,
    private readonly idleMs?: number,
    private readonly patient = false,
  ) {
    if (parent?.aborted) {
      this.stop('cancel');
      return;
    }
    parent?.addEventListener('abort', this.onParentAbort, { once: true });
    this.requestTimer = setTimeout(() => this.stop('request'), timeoutMs);
    if (idleMs && !patient) this.idleTimer = setTimeout(this.checkIdle, idleMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Request options for the SDK: our signal, plus the guard for `probingFetch`. */
  requestOptions(): { signal: AbortSignal; fetchOptions: Record<string, never> } {
    return { signal: this.controller.signal, fetchOptions: { [GUARD]: this } as unknown as Record<string, never> };
  }

  /** Bytes arrived (or the headers did): the stream is alive. */
  activity(bytes?: Uint8Array): void {
    this.lastActivity = Date.now();
    if (!bytes?.length) return;
    if (!this.sawBytes) {
      this.sawBytes = true;
      if (this.patient && this.idleMs && !this.reason) this.idleTimer = setTimeout(this.checkIdle, this.idleMs);
    }
    if (bytes.length >= DONE_TAIL) this.tail = bytes.slice(bytes.length - DONE_TAIL);
    else {
      const joined = new Uint8Array(this.tail.length + bytes.length);
      joined.set(this.tail);
      joined.set(bytes, this.tail.length);
      this.tail = joined.slice(Math.max(0, joined.length - DONE_TAIL));
    }
  }

  /** Whether the body received so far ends with the `data: [DONE]` event. */
  get sawDone(): boolean {
    return /(^|\n)data: ?\[DONE\]\s*$/.test(latin1.decode(this.tail));
  }

  /** While our consumer holds a chunk, its slowness must not count as the server being idle. */
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
    this.lastActivity = Date.now();
  }

  /** Aborts the HTTP request (e.g. the consumer stopped reading) without marking a failure. */
  abort(): void {
    this.controller.abort();
  }

  /** The error to raise when the guard itself stopped the request; undefined otherwise. */
  stopError(): Error | undefined {
    switch (this.reason) {
      case 'cancel':
        return new CancelledError('model request cancelled');
      case 'request':
        return new ModelTimeoutError(this.timeoutMs, 'request');
      case 'idle':
        return new ModelTimeoutError(this.idleMs!, 'idle');
      default:
        return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.requestTimer);
    clearTimeout(this.idleTimer);
    this.parent?.removeEventListener('abort', this.onParentAbort);
  }

  private readonly onParentAbort = () => this.stop('cancel');

  private readonly checkIdle = () => {
    const quiet = this.paused ? 0 : Date.now() - this.lastActivity;
    if (quiet >= this.idleMs!) return this.stop('idle');
    this.idleTimer = setTimeout(this.checkIdle, this.idleMs! - quiet);
  };

  private stop(reason: StopReason): void {
    if (this.reason || this.controller.signal.aborted) return;
    this.reason = reason;
    this.dispose();
    this.controller.abort(this.stopError());
  }
}

/**
 * A fetch that reports every received byte chunk to the request's CallGuard, so the idle timeout sees
 * SSE comments and keep-alives that the SDK never yields, and the guard can tell whether `[DONE]` came.
 */
export function probingFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const guard = (init as Record<symbol, unknown> | undefined)?.[GUARD] as CallGuard | undefined;
    const res = await base(input, init);
    if (!guard || !res.body) return res;
    guard.activity();
    if (res.status >= 400) {
      const text = await readCapped(res.body, MAX_ERROR_BODY);
      guard.errorBody = text;
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctrl) {
          guard.activity(chunk);
          ctrl.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** An error body is for a message of a few hundred characters: a server cannot make adk hold more than this. */
const MAX_ERROR_BODY = 64 * 1024;

async function readCapped(body: ReadableStream<Uint8Array>, max: number): Promise<string> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.length;
    }
  } finally {
    if (size >= max) await reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  return Buffer.concat(parts).subarray(0, max).toString('utf8');
}
