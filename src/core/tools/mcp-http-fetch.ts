import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { buildConnector, Dispatcher } from 'undici';
import { namedExports } from '../named-exports.js';
import { addressPolicy, type AddressPolicy, type AllowEntry } from './net/address-policy.js';

/** The fetch an MCP HTTP transport makes its requests with (the SDK's FetchLike). */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;
/**
 * undici takes about 50 ms to load: only a session that reaches a remote MCP server or A2A agent pays
 * it. A bundle in ES-module form (the REPL's) gets undici, a CommonJS package, as a default export
 * only; the CommonJS bundle and plain Node give its names too: either shape works.
 */
const loadUndici = (): Promise<Undici> => (undici ??= import('undici').then((m) => namedExports(m, 'Agent')));

/**
 * fetch for a remote MCP server under fetch_url's rules: public addresses only, unless the server's
 * URL names the address itself (`http://127.0.0.1:3000/mcp`, `http://localhost:8080`) or
 * ADK_FETCH_ALLOW_HOSTS opens a host. Every connection (OAuth discovery and token endpoints a server
 * points at included) resolves the host once and connects to the address it checked, so DNS
 * rebinding cannot swap it.
 */
export function mcpFetch(serverUrl: URL, allowHosts: readonly AllowEntry[] = []): McpFetch {
  const host = serverUrl.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only an address written out (or `localhost`) is "named": a public-looking name that resolves to
  // a private address is what an attacker's DNS would answer.
  const named: AllowEntry[] = isIP(host) || host === 'localhost' ? [{ host }] : [];
  const policy = addressPolicy([...allowHosts, ...named]);
  let agent: Dispatcher | undefined;
  return async (url, init) => {
    const u = await loadUndici();
    agent ??= new u.Agent({ connect: checkedConnector(policy, u) });
    try {
      return globalResponse(await u.fetch(url, { ...(init as object), dispatcher: agent }));
    } catch (e) {
      // undici says only "fetch failed"; the refusal (or the network's own error) is its cause.
      const cause = (e as { cause?: Error }).cause;
      throw cause instanceof Error ? new Error(cause.message, { cause }) : e;
    }
  };
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * undici's Response as the global one: the MCP SDK reads OAuth errors only from an `instanceof
 * Response` (the package's undici is not Node's own), else it parses "[object Response]" and an
 * `invalid_client` is never seen as one.
 */
function globalResponse(r: import('undici').Response): Response {
  const out = new Response(NULL_BODY.has(r.status) ? null : (r.body as ReadableStream | null), { status: r.status, statusText: r.statusText, headers: r.headers as unknown as Headers });
  Object.defineProperties(out, { url: { value: r.url }, redirected: { value: r.redirected } });
  return out;
}

/**
 * Connections only to addresses the policy allows: a host name through the checked lookup, and an
 * address written in a URL (which sockets connect to without any lookup) checked here.
 */
function checkedConnector(policy: AddressPolicy, u: Undici): buildConnector.connector {
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    const why = isIP(host) ? policy.refuse(host, host, port) : undefined;
    if (why) return callback(Object.assign(new Error(friendly(why)), { code: 'EREFUSED_DESTINATION' }), null);
    return u.buildConnector({ lookup: checkedLookup(policy, port) })(opts, callback);
  };
}

const friendly = (why: string) =>
  why.replace('fetch_url reaches only public addresses', 'adk reaches remote MCP servers and A2A agents only at public addresses').replace('ADK_FETCH_ALLOW_HOSTS)', 'ADK_FETCH_ALLOW_HOSTS, or name the address in the url)');

/** A DNS lookup that answers only with an address the policy allows, or fails saying why. */
function checkedLookup(policy: AddressPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const reasons: string[] = [];
      const ok = addresses.find((a) => {
        const why = policy.refuse(hostname, a.address, port);
        if (why) reasons.push(friendly(why));
        return !why;
      });
      if (!ok) return callback(Object.assign(new Error(reasons[0] ?? `${hostname} has no address`), { code: 'EREFUSED_DESTINATION' }), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [ok]);
      callback(null, ok.address, ok.family);
    });
  };
}
