// OAuth 2.1 for remote MCP servers (MCP authorization spec): adk's OAuthClientProvider, the login and
// logout flows, and the status line. Tokens live only in ADK_HOME/mcp-auth/<server-key>.json.
export { authStatus, type McpAuthStatus } from './status.js';
export { isMcpLoginRequired, McpLoginRequiredError, type LoginReason } from './login-required.js';
export { mcpLogin, type McpLoginOptions } from './login.js';
export { mcpLogout, type McpLogoutResult } from './logout.js';
export { AdkOAuthProvider, oauthProvider, type OAuthProviderOptions } from './provider.js';
export { oauthSecretValues, setOAuthSecretSink } from './secret-sink.js';
export { authDir, authFile, serverKey } from './token-file.js';
