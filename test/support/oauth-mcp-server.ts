// An OAuth-protected MCP server for tests, from the SDKs' own server-side auth helpers: the
// authorization server is @modelcontextprotocol/sdk 1.32.2's mcpAuthRouter (the 2.x server package
// has only the resource-server half), the resource server is @modelcontextprotocol/server 2.4.0's
// requireBearerAuth + oauthMetadataResponse in front of createMcpHandler. They listen on two origins,
// so the client must really follow the protected-resource metadata to the authorization server.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createMcpHandler, getOAuthProtectedResourceMetadataUrl, McpServer, OAuthError, OAuthErrorCode, oauthMetadataResponse, requireBearerAuth } from '@modelcontextprotocol/server';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createRequire } from 'node:module';

// express has no type declarations installed here; this is the little of it the test uses.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface ExpressApp extends Handler {
  use(handler: unknown): void;
  get(path: string, handler: (req: unknown, res: { json(body: unknown): void }) => void): void;
}
const express = createRequire(import.meta.url)('express') as () => ExpressApp;

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: string;
}
interface AccessToken extends Grant {
  expiresAt: number;
}

/** The authorization server's state, open for the test to read and to tamper with (revoke). */
class TestAuthProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  /** Client ID metadata documents "hosted" at https URLs; stands in for the AS fetching them. */
  readonly metadataDocuments = new Map<string, OAuthClientInformationFull>();
  readonly registered: OAuthClientInformationFull[] = [];
  readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  readonly access = new Map<string, AccessToken>();
  readonly refresh = new Map<string, Grant>();
  readonly tokenRequests: Array<{ grant: 'authorization_code' | 'refresh_token'; resource?: string }> = [];
  readonly revocations: OAuthTokenRevocationRequest[] = [];
  accessTtlSeconds = 3600;

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.clients.get(id) ?? this.metadataDocuments.get(id),
    registerClient: async (client) => {
      const full = client as OAuthClientInformationFull;
      this.clients.set(full.client_id, full);
      this.registered.push(full);
      return full;
    },
  };

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: { redirect(status: number, url: string): void }): Promise<void> {
    // The user "consents" at once: the scripted browser only follows redirects.
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError('unknown authorization code');
    return entry.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, _redirectUri?: string, resource?: URL): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.client.client_id !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    this.codes.delete(code);
    this.tokenRequests.push({ grant: 'authorization_code', resource: resource?.href });
    return this.issue({ clientId: client.client_id, scopes: entry.params.scopes ?? [], resource: (resource ?? entry.params.resource)?.href });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string, _scopes?: string[], resource?: URL): Promise<OAuthTokens> {
    const grant = this.refresh.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('refresh token revoked or unknown');
    this.refresh.delete(refreshToken); // rotation: a public client's refresh token is single-use
    this.tokenRequests.push({ grant: 'refresh_token', resource: resource?.href });
    return this.issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const t = this.access.get(token);
    if (!t) throw new InvalidTokenError('unknown or revoked token');
    return { token, clientId: t.clientId, scopes: t.scopes, expiresAt: Math.floor(t.expiresAt / 1000), ...(t.resource ? { resource: new URL(t.resource) } : {}) };
  }

  async revokeToken(_client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    this.revocations.push(request);
    this.access.delete(request.token);
    this.refresh.delete(request.token);
  }

  /** The user withdraws the grant at the server: every token stops working. */
  revokeAll(): void {
    this.access.clear();
    this.refresh.clear();
  }

  private issue(grant: Grant): OAuthTokens {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    this.access.set(access, { ...grant, expiresAt: Date.now() + this.accessTtlSeconds * 1000 });
    this.refresh.set(refresh, grant);
    return { access_token: access, token_type: 'Bearer', expires_in: this.accessTtlSeconds, refresh_token: refresh, scope: grant.scopes.join(' ') };
  }
}

export interface OAuthMcpServer {
  /** The MCP endpoint: http://127.0.0.1:<port>/mcp */
  mcpUrl: string;
  issuer: string;
  provider: TestAuthProvider;
  /** Requests seen, by path, on each origin. */
  hits: { resource: string[]; auth: string[] };
  close(): Promise<void>;
}

export interface OAuthMcpServerOptions {
  /** Advertise client_id_metadata_document_supported in the authorization server metadata. */
  clientIdMetadataDocuments?: boolean;
}

export async function startOAuthMcpServer(options: OAuthMcpServerOptions = {}): Promise<OAuthMcpServer> {
  const hits = { resource: [] as string[], auth: [] as string[] };
  const provider = new TestAuthProvider();

  // Both servers listen first so their URLs (the issuer, the resource) are known to the routers.
  let authHandler: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.writeHead(503).end();
  let resourceHandler: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.writeHead(503).end();
  const authServer = await listen((q, s) => {
    hits.auth.push(new URL(q.url ?? '/', 'http://x').pathname);
    authHandler(q, s);
  });
  const resourceServer = await listen((q, s) => {
    hits.resource.push(new URL(q.url ?? '/', 'http://x').pathname);
    resourceHandler(q, s);
  });
  const issuerUrl = new URL(`http://127.0.0.1:${port(authServer)}/`);
  const mcpUrl = new URL(`http://127.0.0.1:${port(resourceServer)}/mcp`);

  const noLimit = { rateLimit: false as const };
  const app = express();
  const oauthMetadata = createOAuthMetadata({ provider, issuerUrl, scopesSupported: ['mcp:tools'] });
  if (options.clientIdMetadataDocuments) {
    // Registered before the router so it wins: the same document plus the CIMD capability.
    app.get('/.well-known/oauth-authorization-server', (_q, s) => void s.json({ ...oauthMetadata, client_id_metadata_document_supported: true }));
  }
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl,
      scopesSupported: ['mcp:tools'],
      resourceServerUrl: mcpUrl,
      authorizationOptions: noLimit,
      clientRegistrationOptions: noLimit,
      tokenOptions: noLimit,
      revocationOptions: noLimit,
    }),
  );
  authHandler = app;

  const gate = requireBearerAuth({
    verifier: {
      // The resource server asks the authorization server (in-process introspection).
      verifyAccessToken: async (token) => {
        try {
          return await provider.verifyAccessToken(token);
        } catch {
          throw new OAuthError(OAuthErrorCode.InvalidToken, 'invalid or revoked token');
        }
      },
    },
    requiredScopes: ['mcp:tools'],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    expectedResource: mcpUrl,
  });
  const mcp = createMcpHandler(() => {
    const server = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says which OAuth client called' }, async (ctx) => ({
      content: [{ type: 'text', text: `client ${ctx.http?.authInfo?.clientId ?? 'unknown'}` }],
    }));
    return server;
  });
  resourceHandler = getRequestListener(async (request: Request) => {
    const metadata = oauthMetadataResponse(request, { oauthMetadata, resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'], resourceName: 'oauth test' });
    if (metadata) return metadata;
    if (new URL(request.url).pathname !== '/mcp') return new Response('not found', { status: 404 });
    const authInfo = await gate(request);
    if (authInfo instanceof Response) return authInfo;
    return mcp.fetch(request, { authInfo });
  });

  return {
    mcpUrl: mcpUrl.href,
    issuer: issuerUrl.href,
    provider,
    hits,
    async close() {
      await mcp.close();
      await Promise.all([authServer, resourceServer].map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
    },
  };
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const port = (s: Server) => (s.address() as AddressInfo).port;
