import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { CallGuard } from './openai-call.js';
import { probingFetch } from './openai-call.js';

/** The request shape the AWS SDK hands its HTTP handler (`@smithy/protocol-http`'s HttpRequest). */
interface SmithyRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number | undefined;
  path: string;
  query?: Record<string, string | string[] | null> | undefined;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * An HTTP handler for the AWS SDK over fetch (HTTP/1.1), so Bedrock requests get what every adk model
 * request gets: the CallGuard's idle timeout, cancellation and error bodies. The guard is found by the
 * abort signal the call was sent with.
 */
export class FetchHttpHandler {
  readonly metadata = { handlerProtocol: 'http/1.1' };
  private readonly guards = new WeakMap<AbortSignal, CallGuard>();
  private readonly fetch = probingFetch();

  /** Sends `guard.signal` with the command: this handler then reports to that guard. */
  track(guard: CallGuard): AbortSignal {
    this.guards.set(guard.signal, guard);
    return guard.signal;
  }

  async handle(request: SmithyRequest, options: { abortSignal?: AbortSignal | undefined } = {}): Promise<{ response: unknown }> {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(request.query ?? {})) for (const x of Array.isArray(v) ? v : v === null ? [] : [v]) query.append(k, x);
    const qs = query.toString();
    const url = `${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ''}${request.path}${qs ? `?${qs}` : ''}`;
    // fetch sets these itself (and refuses `host`); the signature covers the same values.
    const headers = Object.fromEntries(Object.entries(request.headers).filter(([k]) => !/^(host|content-length|transfer-encoding|expect)$/i.test(k)));
    const guard = options.abortSignal ? this.guards.get(options.abortSignal) : undefined;
    const init: RequestInit = { method: request.method, headers, signal: options.abortSignal ?? null };
    if (request.body !== undefined && request.body !== null && request.method !== 'GET' && request.method !== 'HEAD') init.body = request.body as RequestInit["body"];
    const res = await this.fetch(url, { ...init, ...(guard?.requestOptions().fetchOptions ?? {}) });
    const body = res.body ? Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>) : Readable.from([]);
    return { response: { statusCode: res.status, reason: res.statusText, headers: headerObject(res.headers), body } };
  }

  updateHttpClientConfig(): void {}
  httpHandlerConfigs(): Record<string, never> {
    return {};
  }
  destroy(): void {}
}

/** A response's headers as a plain object (forEach: Headers' iterator is not typed under every lib set). */
function headerObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
