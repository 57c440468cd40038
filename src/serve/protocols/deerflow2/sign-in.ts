import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieSignIn } from '../../auth.js';

/** How long a DeerFlow sign-in lasts (the cookie itself ends with the browser session). */
const SESSION_MS = 12 * 3600 * 1000;

/** DeerFlow 2's own paths: its gateway's and the LangGraph API it reaches at `/api` (not adk's `/v1`, A2A, AG-UI or the plain LangGraph mounts). */
const DEERFLOW2_PATH = /^\/api\/(?!langgraph(?:\/|$)|chat\/|config$)/;

/**
 * DeerFlow 2's sign-in, without putting the server's token in a cookie: browsers send a
 * localhost cookie to every port of localhost, so whatever a cookie holds, another local
 * program the browser is sent to can read. The cookie holds a session, `expiry.nonce.mac`,
 * signed with the token (any server sharing the token checks it, a restart keeps it), good only
 * for DeerFlow's paths and for 12 hours, and forgotten by this server at sign-out.
 */
export function deerFlow2SignIn(token: string): CookieSignIn & { issue(): string; revoke(value: string): void } {
  const revoked = new Set<string>();
  const mac = (body: string) => createHmac('sha256', token).update(`adk-deerflow2-session:${body}`).digest('base64url');
  return {
    applies: (path) => DEERFLOW2_PATH.test(path),
    issue() {
      const body = `${Date.now() + SESSION_MS}.${randomBytes(18).toString('base64url')}`;
      return `${body}.${mac(body)}`;
    },
    valid(value) {
      const m = /^(\d{1,16})\.([\w-]{24})\.([\w-]{43})$/.exec(value);
      if (!m || revoked.has(value) || Number(m[1]) < Date.now()) return false;
      const want = Buffer.from(mac(`${m[1]}.${m[2]}`));
      const got = Buffer.from(m[3]!);
      return want.length === got.length && timingSafeEqual(want, got);
    },
    revoke: (value) => void revoked.add(value),
  };
}
