import { cancelledBy } from './errors.js';

/** Resolves after `ms`, or rejects with CancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledBy(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledBy(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races `promise` against `signal`: a tool that ignores its signal cannot hold a cancel hostage. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelledBy(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledBy(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** A child signal that aborts when the parent aborts or after `timeoutMs`. */
export function childSignal(parent: AbortSignal | undefined, timeoutMs?: number): { signal: AbortSignal; dispose: () => void } {
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(parent?.reason);
  if (parent?.aborted) ctrl.abort(parent.reason);
  else parent?.addEventListener('abort', onAbort, { once: true });
  // Not unref'd: a tool that waits on nothing (a promise that never settles) must still time out
  // rather than let the process exit mid-run. `dispose` clears it.
  const timer = timeoutMs ? setTimeout(() => ctrl.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs) : undefined;
  return {
    signal: ctrl.signal,
    dispose: () => {
      if (timer) clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}
