import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type { AddressPolicy } from './address-policy.js';

export interface SafeGetOptions {
  policy: AddressPolicy;
  signal: AbortSignal;
  /** Decoded body bytes read at most. */
  maxBytes: number;
  maxRedirects?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** Asked before a redirect is followed: a reason refuses it (the run's deny rules hold for every hop). */
  refuseRedirect?: ((url: URL) => string | undefined) | undefined;
}

export interface SafeGetResult {
  status: number;
  statusText: string;
  url: string;
  contentType: string;
  bytes: Buffer;
  truncated: boolean;
}

/** A destination fetch_url will not reach; the message says why. */
export class RefusedDestinationError extends Error {
  override name = 'RefusedDestinationError';
}

const MAX_REDIRECTS = 5;

/**
 * HTTP GET that reaches only addresses the policy allows: the host is resolved once, every address
 * is checked, and the connection goes to the checked address (no second DNS lookup, so DNS
 * rebinding cannot swap it). Every redirect is checked the same way.
 */
export async function safeGet(start: URL, opts: SafeGetOptions): Promise<SafeGetResult> {
  const net = await (networking ??= loadNetworking());
  let url = start;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedDestinationError(`only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}`);
    const res = await request(net, url, await checkedAddress(net, url, opts.policy), opts);
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.destroy();
      if (hop >= (opts.maxRedirects ?? MAX_REDIRECTS)) throw new Error(`more than ${opts.maxRedirects ?? MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      const refused = opts.refuseRedirect?.(url);
      if (refused) throw new RefusedDestinationError(`it redirects to ${url.href}, which ${refused}`);
      continue;
    }
    const { bytes, truncated } = await readCapped(decoded(net, res), opts.maxBytes, opts.signal);
    return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', url: url.href, contentType: String(res.headers['content-type'] ?? ''), bytes, truncated };
  }
}

type Networking = Awaited<ReturnType<typeof loadNetworking>>;
let networking: Promise<Networking> | undefined;

/** Loaded on the first fetch, not when the tool is defined: TLS alone costs every CLI start ~2 ms. */
async function loadNetworking() {
  const [dns, http, https, zlib] = await Promise.all([import('node:dns/promises'), import('node:http'), import('node:https'), import('node:zlib')]);
  return { lookup: dns.lookup, http: http.default, https: https.default, zlib };
}

async function checkedAddress(net: Networking, url: URL, policy: AddressPolicy): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await net.lookup(host, { all: true, verbatim: true });
  if (!found.length) throw new Error(`${host} has no address`);
  const reasons: string[] = [];
  for (const a of found) {
    const why = policy.refuse(host, a.address, port);
    if (!why) return a;
    reasons.push(why);
  }
  throw new RefusedDestinationError(reasons[0]);
}

function request(net: Networking, url: URL, to: { address: string; family: number }, opts: SafeGetOptions): Promise<IncomingMessage> {
  const client = url.protocol === 'https:' ? net.https : net.http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        signal: opts.signal,
        headers: { 'accept-encoding': 'gzip, deflate, br', ...opts.headers },
        // The connection goes to the address that was checked, whatever DNS says now.
        lookup: ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          options?.all ? cb(null, [{ address: to.address, family: to.family }]) : cb(null, to.address, to.family)) as unknown as LookupFunction,
        agent: false,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded({ zlib }: Networking, res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!decoder) return res;
  res.on('error', (e) => decoder.destroy(e));
  return res.pipe(decoder);
}

/** Reads at most `maxBytes` of decoded body (a decompression bomb stops there too). */
async function readCapped(body: Readable, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (signal.aborted) break;
      const b = chunk as Buffer;
      if (size + b.length > maxBytes) {
        parts.push(b.subarray(0, maxBytes - size));
        size = maxBytes;
        return { bytes: Buffer.concat(parts), truncated: true };
      }
      parts.push(b);
      size += b.length;
    }
  } finally {
    body.destroy();
  }
  return { bytes: Buffer.concat(parts), truncated: false };
}
