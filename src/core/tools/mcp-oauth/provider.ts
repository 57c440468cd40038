import { randomBytes, randomInt } from 'node:crypto';
import { mcpFetch } from '../mcp-http-fetch.js';
import { parseAllowHosts } from '../net/address-policy.js';
import {
  auth,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { openBrowser } from './browser.js';
import { McpLoginRequiredError } from './login-required.js';
import { LoopbackReceiver } from './loopback.js';
import { readAuthRecord, updateAuthRecord, type AuthRecord } from './token-file.js';

export interface OAuthProviderOptions {
  /** Whether a person is there to use a browser. When false, a login need throws McpLoginRequiredError. */
  interactive: boolean;
  /**
   * An https URL of adk's client ID metadata document, offered as the client_id to authorization
   * servers that advertise `client_id_metadata_document_supported` (else dynamic registration is used).
   * Defaults to ADK_MCP_CLIENT_METADATA_URL.
   */
  clientMetadataUrl?: string;
  /** Told the authorization URL before the browser opens, so a face can print it as a fallback. */
  onAuthorizationUrl?: (url: URL) => void;
  /** How long to wait for the browser (interactive transport logins). */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Set by mcpLogin: the receiver is already listening and mcpLogin waits for the code itself. */
export interface LoginSession {
  receiver: LoopbackReceiver;
}

// A redirect port is registered once and bound again at each login: above Linux's ephemeral range
// (32768-60999), where outgoing connections and port-0 listeners would soon take it.
const EPHEMERAL_LOW = 61000;
const EPHEMERAL_HIGH = 65535;

/**
 * adk's OAuthClientProvider for one remote MCP server and the current user. Everything it keeps
 * (registration, tokens, PKCE verifier, discovery) goes to ADK_HOME/mcp-auth/<server-key>.json;
 * the SDK's auth() drives discovery, registration, PKCE, code exchange and refresh through it.
 */
export class AdkOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly port: number;
  private lastState: string | undefined;
  /** A headless run keeps the verifier in memory: it never completes a redirect anyway. */
  private verifier: string | undefined;
  /** This provider registered the client it uses (so the server knows it). */
  private registeredNow = false;

  constructor(
    readonly serverName: string,
    readonly serverUrl: string,
    private readonly options: OAuthProviderOptions,
    private readonly login?: LoginSession,
  ) {
    this.env = options.env ?? process.env;
    this.clientMetadataUrl = options.clientMetadataUrl ?? (this.env.ADK_MCP_CLIENT_METADATA_URL || undefined);
    // The redirect URI must be known before anything is async: mcpLogin's live receiver, else the
    // port this server's registration was made with, else a fresh ephemeral port.
    this.port = login?.receiver.port ?? this.record().redirectPort ?? randomInt(EPHEMERAL_LOW, EPHEMERAL_HIGH);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'adk',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A public native client (RFC 8252): PKCE, no secret to keep.
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(24).toString('base64url');
    this.login?.receiver.expect(this.lastState);
    return this.lastState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    const client = this.record().client;
    // Headless, registering would only lead to a browser step that cannot happen: stop here.
    if (!client && !this.options.interactive) throw this.loginRequired();
    return client;
  }

  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.registeredNow = true;
    this.update((r) => {
      r.client = client;
      r.redirectPort = this.port;
    });
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.record().tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.update((r) => {
      r.tokens = tokens;
      r.expiresAt = typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
      r.codeVerifier = undefined;
      r.refusedAt = undefined;
    });
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
    if (this.options.interactive) this.update((r) => void (r.codeVerifier = codeVerifier));
  }

  codeVerifier(): string {
    const verifier = this.verifier ?? this.record().codeVerifier;
    if (!verifier) throw new Error(`no login in progress for MCP server "${this.serverName}"`);
    return verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.update((r) => void (r.discovery = state));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record().discovery;
  }

  /** Called by auth() when the server says the credentials no longer work (invalid_grant, invalid_client). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.update((r) => {
      if (scope === 'all' || scope === 'tokens') {
        if (r.tokens) r.refusedAt = Date.now();
        r.tokens = undefined;
        r.expiresAt = undefined;
      }
      if (scope === 'all' || scope === 'client') r.client = undefined;
      if (scope === 'all' || scope === 'verifier') r.codeVerifier = undefined;
      if (scope === 'all' || scope === 'discovery') r.discovery = undefined;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.interactive) throw this.loginRequired();
    // A stored registration the server has forgotten would send the browser to an error page (no
    // redirect ever comes): found out first, dropped, and the login registers again (mcpLogin).
    if (this.login && !this.registeredNow && (await this.clientForgotten())) {
      this.invalidateCredentials('client');
      throw new ForgottenClientError(this.serverName);
    }
    this.options.onAuthorizationUrl?.(authorizationUrl);
    if (this.login) {
      // mcpLogin owns the receiver and waits for the code after auth() returns.
      await openBrowser(authorizationUrl.href, this.env);
      return;
    }
    await this.loginInPlace(authorizationUrl);
  }

  /**
   * The transport asked for a login in an interactive run: listen on the registered port, open the
   * browser, and exchange the code here. The transport's request still fails (auth() answers
   * REDIRECT), but the tokens are stored: connecting again succeeds.
   */
  private async loginInPlace(authorizationUrl: URL): Promise<void> {
    let receiver: LoopbackReceiver;
    try {
      receiver = await LoopbackReceiver.start(this.port, { strict: true });
    } catch {
      // The registered redirect port is taken: mcpLogin can pick another and re-register.
      throw this.loginRequired();
    }
    try {
      receiver.expect(this.lastState ?? '');
      await openBrowser(authorizationUrl.href, this.env);
      const { code, iss } = await receiver.wait({ timeoutMs: this.options.timeoutMs });
      const result = await auth(this, { serverUrl: this.serverUrl, authorizationCode: code, ...(iss ? { iss } : {}), fetchFn: mcpFetch(new URL(this.serverUrl), parseAllowHosts(this.env.ADK_FETCH_ALLOW_HOSTS)) });
      if (result !== 'AUTHORIZED') throw new Error(`MCP server "${this.serverName}": the login did not complete`);
    } finally {
      await receiver.close();
    }
  }

  /**
   * Whether the authorization server no longer knows the stored client: a token request with a code
   * that cannot exist answers `invalid_client` for an unknown client and `invalid_grant` for a known
   * one (RFC 6749 §5.2). A client ID that is a metadata document URL is never forgotten.
   */
  private async clientForgotten(): Promise<boolean> {
    const client = this.record().client;
    const endpoint = this.record().discovery?.authorizationServerMetadata?.token_endpoint;
    // A client with a secret would need it to be told apart (an unauthenticated request is invalid_client either way).
    if (!client || /^https:\/\//i.test(client.client_id) || client.client_secret || !endpoint) return false;
    const fetchFn = mcpFetch(new URL(this.serverUrl), parseAllowHosts(this.env.ADK_FETCH_ALLOW_HOSTS));
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: `adk-client-check-${randomBytes(8).toString('hex')}`, redirect_uri: this.redirectUrl, client_id: client.client_id, code_verifier: randomBytes(32).toString('base64url') });
    try {
      const res = await fetchFn(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body, signal: AbortSignal.timeout(15_000) });
      const answer = (await res.json().catch(() => ({}))) as { error?: unknown };
      return answer.error === 'invalid_client';
    } catch {
      return false; // unreachable: the login goes on and says what happens
    }
  }

  private loginRequired(): McpLoginRequiredError {
    const r = this.record();
    // Holding tokens here means the server just refused them (a 401 that refresh could not fix).
    return new McpLoginRequiredError(this.serverName, r.refusedAt || r.tokens ? 'refused' : 'needs-login');
  }

  private record(): AuthRecord {
    return readAuthRecord(this.serverName, this.serverUrl, this.env);
  }

  private update(change: (r: AuthRecord) => void): void {
    updateAuthRecord(this.serverName, this.serverUrl, change, this.env);
  }
}

/** The stored registration is unknown to the authorization server: mcpLogin registers again. */
export class ForgottenClientError extends Error {
  constructor(server: string) {
    super(`MCP server "${server}": the authorization server no longer knows adk's registration`);
    this.name = 'ForgottenClientError';
  }
}

/** The provider a transport uses for a remote MCP server (see AdkOAuthProvider). */
export function oauthProvider(name: string, url: string, options: OAuthProviderOptions): AdkOAuthProvider {
  return new AdkOAuthProvider(name, url, options);
}
