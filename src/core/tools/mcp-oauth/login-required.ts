/** Why a server needs `adk mcp login`: never logged in, or the server refused the stored token. */
export type LoginReason = 'needs-login' | 'refused';

/**
 * Thrown instead of opening a browser when adk runs headless. The message is exactly the command to
 * run; `line` is the sentence to show a person.
 */
export class McpLoginRequiredError extends Error {
  override readonly name = 'McpLoginRequiredError';
  readonly command: string;
  readonly line: string;

  constructor(
    readonly server: string,
    readonly reason: LoginReason,
  ) {
    const command = `adk mcp login ${server}`;
    super(command);
    this.command = command;
    this.line =
      reason === 'refused'
        ? `MCP server "${server}" refused the stored token (revoked or expired): run \`${command}\``
        : `MCP server "${server}" needs a login: run \`${command}\``;
  }
}

export const isMcpLoginRequired = (e: unknown): e is McpLoginRequiredError => e instanceof Error && e.name === 'McpLoginRequiredError' && 'command' in e;
