import * as z from 'zod';
import { cancelledBy } from '../../errors.js';
import type { Tool } from '../tool.js';
import { formatBytes } from './file-io.js';
import { addressPolicy, parseAllowHosts } from '../net/address-policy.js';
import { RefusedDestinationError, safeGet } from '../net/safe-get.js';

export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
export const FETCH_MAX_BYTES = 1024 * 1024;

export interface FetchUrlToolOptions {
  timeoutMs?: number | undefined;
  maxBytes?: number | undefined;
  /**
   * Destinations opened despite being private: `host`, `host:port`, CIDR ranges (the CLI adds
   * ADK_FETCH_ALLOW_HOSTS). Everything else must resolve to a public address.
   */
  allowHosts?: readonly string[] | undefined;
}

const parameters = z.object({
  url: z.string().describe('The http:// or https:// URL to GET'),
});

/**
 * The `fetch_url` tool: an HTTP(S) GET of a public address (unless `allowHosts` opens a private
 * one), returning the status and the body as text, read up to `maxBytes`.
 */
export function fetchUrlTool(options: FetchUrlToolOptions = {}): Tool<z.infer<typeof parameters>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FETCH_MAX_BYTES;
  const policy = addressPolicy(parseAllowHosts(options.allowHosts));
  return {
    name: 'fetch_url',
    readOnly: true,
    description: `Fetch a web page or file with HTTP GET and return its status and text (HTML is reduced to plain text). At most ${formatBytes(maxBytes)} is read.`,
    parameters,
    timeoutMs: timeoutMs + 5_000,
    async execute({ url }, ctx) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { content: `Error: '${url}' is not a valid URL`, isError: true };
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return { content: `Error: only http and https URLs can be fetched, not ${parsed.protocol.replace(/:$/, '')}`, isError: true };
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      try {
        const res = await safeGet(parsed, {
          policy,
          signal,
          maxBytes,
          headers: { 'user-agent': 'adk-fetch_url', accept: 'text/html,text/plain,application/json,*/*;q=0.8' },
          // The run's deny rules were asked about the URL the model gave; a redirect is asked again.
          refuseRedirect: (next) => {
            const why = ctx.runContext?.approvalPolicy?.refuses?.({ tool: 'fetch_url', arguments: { url: next.href }, agentName: ctx.agentName, readOnly: true });
            return why ? `is refused (${why.replace(/\.?\s*$/, '')})` : undefined;
          },
        });
        const head = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${res.url !== parsed.href ? `\nurl: ${res.url}` : ''}${res.contentType ? `\ncontent-type: ${res.contentType}` : ''}`;
        const body = await describeBody(res.bytes, res.contentType, signal);
        const note = res.truncated ? `\n[truncated: only the first ${formatBytes(maxBytes)} of the response was read]` : '';
        return { content: `${head}\n\n${body}${note}`, isError: res.status >= 400 };
      } catch (e) {
        if (ctx.signal.aborted) throw cancelledBy(ctx.signal);
        if (timeout.aborted) return { content: `Error: fetching ${parsed.href} timed out after ${timeoutMs} ms`, isError: true };
        if (e instanceof RefusedDestinationError) return { content: `Error: refused to fetch ${parsed.href}: ${e.message}`, isError: true };
        const cause = (e as Error & { cause?: Error }).cause;
        return { content: `Error: fetching ${parsed.href} failed: ${cause?.message ?? (e as Error).message}`, isError: true };
      }
    },
  };
}

async function describeBody(bytes: Uint8Array, type: string, signal: AbortSignal): Promise<string> {
  if (bytes.length === 0) return '(empty body)';
  const mime = type.split(';')[0].trim().toLowerCase();
  const textual = !mime || mime.startsWith('text/') || /json|xml|javascript|ecmascript|yaml|csv|x-www-form-urlencoded/.test(mime);
  if (!textual || bytes.subarray(0, 8192).includes(0)) return `(binary content, ${formatBytes(bytes.length)} read; not shown)`;
  const text = decode(bytes, /charset=([^;]+)/i.exec(type)?.[1]?.trim());
  const html = mime.includes('html') || (!mime && /^\s*<(!doctype html|html)/i.test(text));
  if (!html) return text;
  // The HTML parser loads with the first page that needs it.
  const { htmlToText } = await import('./html-to-text.js');
  return htmlToText(text, signal);
}

function decode(bytes: Uint8Array, charset?: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
