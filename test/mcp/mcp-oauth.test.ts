import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authDir, authFile, authStatus, isMcpLoginRequired, McpLoginRequiredError, mcpLogin, mcpLogout, oauthProvider, oauthSecretValues, setOAuthSecretSink } from '../../src/core/tools/mcp-oauth/index.js';
import { writeAuthRecord } from '../../src/core/tools/mcp-oauth/token-file.js';
import { browserCommand } from '../../src/core/tools/mcp-oauth/browser.js';
import { mcpFetch } from '../../src/core/tools/mcp-http-fetch.js';
import { startOAuthMcpServer, type OAuthMcpServer } from '../support/oauth-mcp-server.js';

// The person at the browser, scripted: follows the authorization URL (the server consents at once),
// first sends a forged callback with another state (must be turned away), then the real one.
const BROWSER = `
import { appendFileSync } from 'node:fs';
// The log's path is the script's second argument: the browser gets no variables but a desktop's.
const log = (entry) => appendFileSync(process.argv[3], JSON.stringify(entry) + '\\n');
const url = process.argv[2];
log({ opened: url });
const res = await fetch(url, { redirect: 'manual' });
const location = res.headers.get('location');
if (!location) { log({ failed: res.status, body: await res.text() }); process.exit(1); }
const callback = new URL(location);
const forged = new URL(callback);
forged.searchParams.set('state', 'forged');
forged.searchParams.set('code', 'forged-code');
const forgedStatus = (await fetch(forged)).status;
const callbackStatus = (await fetch(callback)).status;
log({ forged: forgedStatus, callback: callbackStatus });
`;

interface BrowserEntry {
  opened?: string;
  forged?: number;
  callback?: number;
  failed?: number;
}

let dir: string;
let env: NodeJS.ProcessEnv;
let server: OAuthMcpServer;
const NAME = 'remote';

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adk-mcp-oauth-'));
  const script = join(dir, 'browser.mjs');
  writeFileSync(script, BROWSER);
  env = { PATH: process.env.PATH, ADK_HOME: join(dir, 'home'), ADK_BROWSER: `${process.execPath} ${script} %s ${join(dir, 'browser.log')}`, BROWSER_LOG: join(dir, 'browser.log') };
  server = await startOAuthMcpServer();
});

afterEach(async () => {
  setOAuthSecretSink(undefined);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const browserLog = (): BrowserEntry[] => {
  try {
    return readFileSync(env.BROWSER_LOG!, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as BrowserEntry);
  } catch {
    return [];
  }
};

/** The browser script writes its last line after the callback answered: give it a moment. */
async function browserDone(count = 1): Promise<BrowserEntry[]> {
  for (let i = 0; i < 100 && browserLog().filter((e) => e.callback !== undefined).length < count; i++) await new Promise((r) => setTimeout(r, 20));
  return browserLog();
}

const stored = () => JSON.parse(readFileSync(authFile(NAME, server.mcpUrl, env), 'utf8')) as { tokens?: { access_token: string; refresh_token?: string }; client?: { client_id: string; redirect_uris?: string[] } };

/** `adkFetch`: through adk's own fetch (mcpFetch, on undici), as McpConnection connects. */
async function listTools(provider: OAuthClientProvider, adkFetch = false): Promise<string[]> {
  const client = new Client({ name: 'adk-test', version: '0.0.0' });
  const fetch = adkFetch ? { fetch: mcpFetch(new URL(server.mcpUrl)) } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl), { authProvider: provider, ...fetch }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

/** The error a failed connect surfaced: the provider's McpLoginRequiredError, unwrapped by the SDK. */
function loginRequired(e: unknown): McpLoginRequiredError {
  expect(e).toBeInstanceOf(McpLoginRequiredError);
  expect(isMcpLoginRequired(e)).toBe(true);
  return e as McpLoginRequiredError;
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

const headless = () => oauthProvider(NAME, server.mcpUrl, { interactive: false, env });

describe('OAuth 2.1 for remote MCP servers', () => {
  it('logs in by discovery, dynamic registration and PKCE in the browser, then lists the tools', async () => {
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('needs-login');
    await mcpLogin(NAME, server.mcpUrl, { env });

    // Discovery: the protected-resource metadata on the MCP server's origin, then the
    // authorization server's own metadata on its origin.
    expect(server.hits.resource).toContain('/.well-known/oauth-protected-resource/mcp');
    expect(server.hits.auth).toContain('/.well-known/oauth-authorization-server');
    // Dynamic client registration with a loopback redirect URI.
    expect(server.provider.registered).toHaveLength(1);
    const registration = server.provider.registered[0]!;
    expect(registration.redirect_uris).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/)]);
    expect(registration.token_endpoint_auth_method).toBe('none');

    // The browser got an authorization-code request with PKCE (S256), a state and the resource.
    const log = await browserDone();
    const opened = new URL(log.find((e) => e.opened)!.opened!);
    expect(opened.origin + opened.pathname).toBe(new URL('authorize', server.issuer).href);
    expect(opened.searchParams.get('response_type')).toBe('code');
    expect(opened.searchParams.get('code_challenge_method')).toBe('S256');
    expect(opened.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(opened.searchParams.get('resource')).toBe(server.mcpUrl);
    expect(opened.searchParams.get('redirect_uri')).toBe(registration.redirect_uris[0]);
    // A callback with a forged state was turned away; the real one was taken.
    expect(log.find((e) => e.callback !== undefined)).toMatchObject({ forged: 400, callback: 200 });
    // The code was exchanged (the SDK's token handler checked the PKCE verifier) for this resource.
    expect(server.provider.tokenRequests).toEqual([{ grant: 'authorization_code', resource: server.mcpUrl }]);
    expect(stored().client?.client_id).toBe(registration.client_id);
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('logged-in');

    expect(await listTools(headless())).toEqual(['whoami']);
  });

  it('refreshes an expired access token without a browser', async () => {
    server.provider.accessTtlSeconds = 1;
    await mcpLogin(NAME, server.mcpUrl, { env });
    const first = stored().tokens!;
    const opened = (await browserDone()).filter((e) => e.opened).length;
    await new Promise((r) => setTimeout(r, 1_200));
    // Tokens issued from now on last: under load a renewed 1 s token could expire before it is used.
    server.provider.accessTtlSeconds = 3600;
    // Expired, but the refresh token renews it: still logged in.
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('logged-in');
    // The resource server refuses the old token now.
    const stale = await fetch(server.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${first.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(stale.status).toBe(401);

    expect(await listTools(headless())).toEqual(['whoami']);
    expect(server.provider.tokenRequests.map((r) => r.grant)).toEqual(['authorization_code', 'refresh_token']);
    expect(server.provider.tokenRequests[1]!.resource).toBe(server.mcpUrl);
    const second = stored().tokens!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(browserLog().filter((e) => e.opened)).toHaveLength(opened);
  });

  it('a revoked token fails with the clear `adk mcp login` line, headless', async () => {
    await mcpLogin(NAME, server.mcpUrl, { env });
    await browserDone();
    expect(await listTools(headless())).toEqual(['whoami']);
    server.provider.revokeAll();

    const error = loginRequired(await failure(listTools(headless())));
    expect(error.message).toBe(`adk mcp login ${NAME}`);
    expect(error.reason).toBe('refused');
    expect(error.line).toBe(`MCP server "${NAME}" refused the stored token (revoked or expired): run \`adk mcp login ${NAME}\``);
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('expired');
    expect(stored().tokens).toBeUndefined();
    expect(browserLog().filter((e) => e.opened)).toHaveLength(1);
  });

  it('a headless provider never opens a browser and fails with `adk mcp login NAME`', async () => {
    const e = await failure(listTools(headless()));
    const error = loginRequired(e);
    expect(error.message).toBe(`adk mcp login ${NAME}`);
    expect(error.reason).toBe('needs-login');
    expect(browserLog()).toEqual([]);
    // Nothing was registered on the user's behalf either.
    expect(server.provider.registered).toEqual([]);
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('needs-login');
  });

  it('keeps tokens only in a 0600 file in a 0700 folder under ADK_HOME/mcp-auth', async () => {
    const sunk: string[] = [];
    setOAuthSecretSink((v) => sunk.push(v));
    await mcpLogin(NAME, server.mcpUrl, { env });
    expect(await listTools(headless())).toEqual(['whoami']);
    await browserDone();

    const file = authFile(NAME, server.mcpUrl, env);
    expect(file.startsWith(join(env.ADK_HOME!, 'mcp-auth') + '/')).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(authDir(env)).mode & 0o777).toBe(0o700);
    expect(readdirSync(authDir(env))).toEqual([file.split('/').pop()]); // no temp file left behind

    const { access_token, refresh_token } = stored().tokens!;
    expect(refresh_token).toBeTruthy();
    const holding = filesUnder(dir).filter((f) => [access_token, refresh_token!].some((t) => readFileSync(f, 'latin1').includes(t)));
    expect(holding).toEqual([file]);
    // Every token value went to the redaction sink (the CLI's addConfigSecret).
    expect(sunk).toEqual(expect.arrayContaining([access_token, refresh_token]));
    expect(oauthSecretValues()).toEqual(expect.arrayContaining([access_token, refresh_token]));
  });

  it('logging in again reuses the registration and its loopback port', async () => {
    await mcpLogin(NAME, server.mcpUrl, { env });
    await mcpLogin(NAME, server.mcpUrl, { env });
    const opened = (await browserDone(2)).filter((e) => e.opened).map((e) => new URL(e.opened!).searchParams.get('redirect_uri'));
    expect(opened).toHaveLength(2);
    expect(opened[1]).toBe(opened[0]);
    expect(server.provider.registered).toHaveLength(1);
    // A fresh authorization (not a refresh): two codes exchanged.
    expect(server.provider.tokenRequests.map((r) => r.grant)).toEqual(['authorization_code', 'authorization_code']);
  });

  // Issue 43, item 6: an authorization server that forgot adk's registration (restarted with its
  // clients in memory). adk reused the stored client for ever: a login sent the browser to an error
  // page and waited until its timeout; a refresh's `invalid_client` was misread ("Invalid OAuth error
  // response … [object Response]": undici's Response is not the global one the SDK checks for).
  it('a registration the server forgot: refresh says log in again and drops it; the next login registers anew', async () => {
    server.provider.accessTtlSeconds = 1;
    await mcpLogin(NAME, server.mcpUrl, { env });
    await browserDone();
    const forgotten = stored().client!.client_id;
    server.provider.clients.clear();
    await new Promise((r) => setTimeout(r, 1_200));
    server.provider.accessTtlSeconds = 3600;
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...a: unknown[]) => void warned.push(a.join(' '));
    try {
      loginRequired(await failure(listTools(headless(), true)));
    } finally {
      console.warn = warn;
    }
    expect(warned.join('\n')).not.toContain('[object Response]');
    expect(stored().client).toBeUndefined();

    await mcpLogin(NAME, server.mcpUrl, { env, timeoutMs: 10_000 });
    expect(stored().client!.client_id).not.toBe(forgotten);
    expect(await listTools(headless())).toEqual(['whoami']);
  });

  it('a login with a registration the server forgot registers anew instead of waiting on an error page', async () => {
    await mcpLogin(NAME, server.mcpUrl, { env });
    await browserDone();
    const forgotten = stored().client!.client_id;
    server.provider.clients.clear();
    await mcpLogin(NAME, server.mcpUrl, { env, timeoutMs: 10_000 });
    expect(server.provider.registered).toHaveLength(2);
    expect(stored().client!.client_id).not.toBe(forgotten);
    expect(await listTools(headless())).toEqual(['whoami']);
  });

  it('logout revokes the tokens at the server and deletes the file', async () => {
    await mcpLogin(NAME, server.mcpUrl, { env });
    await browserDone();
    const { access_token, refresh_token } = stored().tokens!;
    expect(await mcpLogout(NAME, server.mcpUrl, { env })).toEqual({ removed: true, revoked: true });
    expect(server.provider.revocations.map((r) => r.token).sort()).toEqual([access_token, refresh_token].sort());
    await expect(server.provider.verifyAccessToken(access_token)).rejects.toThrow();
    expect(() => statSync(authFile(NAME, server.mcpUrl, env))).toThrow();
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('needs-login');
    expect(await mcpLogout(NAME, server.mcpUrl, { env })).toEqual({ removed: false, revoked: false });
  });

  it('an interactive provider logs in from the transport, and the next connect works', async () => {
    const provider = oauthProvider(NAME, server.mcpUrl, { interactive: true, env });
    // The request that needed the login fails (the SDK answers REDIRECT) but the tokens are stored.
    expect(UnauthorizedError.isInstance(await failure(listTools(provider)))).toBe(true);
    expect((await browserDone()).filter((e) => e.opened)).toHaveLength(1);
    expect(authStatus(NAME, server.mcpUrl, { env })).toBe('logged-in');
    expect(await listTools(provider)).toEqual(['whoami']);
  });

  it('authStatus: expired once the access token lapses with no refresh token to renew it', () => {
    const record = { version: 1 as const, name: NAME, url: server.mcpUrl, tokens: { access_token: 'access-token-value', token_type: 'Bearer' }, expiresAt: 1_000 };
    writeAuthRecord(record, env);
    expect(authStatus(NAME, server.mcpUrl, { env, now: 999 })).toBe('logged-in');
    expect(authStatus(NAME, server.mcpUrl, { env, now: 1_000 })).toBe('expired');
    writeAuthRecord({ ...record, tokens: { ...record.tokens, refresh_token: 'refresh-token-value' } }, env);
    expect(authStatus(NAME, server.mcpUrl, { env, now: 1_000 })).toBe('logged-in');
    // Another URL under the same name is another server: nothing stored for it.
    expect(authStatus(NAME, 'http://127.0.0.1:1/other', { env })).toBe('needs-login');
  });

  it('browserCommand puts the URL in one argument, never through a shell', () => {
    const url = 'http://127.0.0.1:1/authorize?a=1&b=$(touch x)';
    expect(browserCommand(url, { ADK_BROWSER: 'firefox --new-window' }, 'linux')).toEqual(['firefox', '--new-window', url]);
    expect(browserCommand(url, { ADK_BROWSER: 'chrome --app=%s --x' }, 'linux')).toEqual(['chrome', `--app=${url}`, '--x']);
    expect(browserCommand(url, {}, 'linux')).toEqual(['xdg-open', url]);
    expect(browserCommand(url, {}, 'darwin')).toEqual(['open', url]);
  });
});

describe('client ID metadata documents', () => {
  it('uses the https client_id instead of registering when the server advertises support', async () => {
    await server.close();
    server = await startOAuthMcpServer({ clientIdMetadataDocuments: true });
    const clientId = 'https://adk.example/oauth/client.json';
    // The document adk would host there; the test server looks it up instead of fetching it.
    server.provider.metadataDocuments.set(clientId, { client_id: clientId, client_name: 'adk', redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] });
    await mcpLogin(NAME, server.mcpUrl, { env, clientMetadataUrl: clientId });

    expect(server.provider.registered).toEqual([]);
    expect(stored().client?.client_id).toBe(clientId);
    expect(new URL((await browserDone()).find((e) => e.opened)!.opened!).searchParams.get('client_id')).toBe(clientId);
    expect(await listTools(oauthProvider(NAME, server.mcpUrl, { interactive: false, env, clientMetadataUrl: clientId }))).toEqual(['whoami']);
  });
});

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(root, e.name)) : [join(root, e.name)]));
}
