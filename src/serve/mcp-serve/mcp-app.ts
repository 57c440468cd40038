import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { redactSecrets } from '../../core/store/redact.js';
import { callTeam, type CallIo, type TeamHost } from './team-call.js';
import type { TeamTool } from './team-tools.js';
import { callResult, TeamToolInput, TeamToolOutput } from './tool-shapes.js';

/** The calls under way, so a stopping server can cancel them and wait until each is saved. */
export class RunningCalls {
  private readonly calls = new Map<Promise<unknown>, AbortController>();

  track<T>(controller: AbortController, call: Promise<T>): Promise<T> {
    this.calls.set(call, controller);
    void call.finally(() => this.calls.delete(call)).catch(() => {});
    return call;
  }

  /** Cancels every call (each turn stops at a safe point and is saved) and waits for them. */
  async stop(): Promise<void> {
    for (const c of this.calls.values()) c.abort();
    await Promise.allSettled([...this.calls.keys()]);
  }
}

/**
 * One MCP server (one client connection): each team a tool, its calls run by `callTeam`. What
 * the client declared at initialize (elicitation) and sent with the call (a progress token, a
 * cancellation) decides how the call talks back.
 */
export function createMcpApp(host: TeamHost, tools: readonly TeamTool[], running: RunningCalls, version: string): McpServer {
  const mcp = new McpServer({ name: 'adk', version }, { capabilities: { tools: {} }, instructions: 'Each tool runs an adk team of agents on a task. Results carry a sessionId: pass it as `session` to continue that conversation.' });
  for (const tool of tools) {
    mcp.registerTool(
      tool.name,
      { title: `adk team: ${tool.agent}`, description: tool.description, inputSchema: TeamToolInput, outputSchema: TeamToolOutput, annotations: { openWorldHint: true } },
      async (input, ctx) => {
        const controller = new AbortController();
        const signal = AbortSignal.any([ctx.mcpReq.signal, controller.signal]);
        const io: CallIo = { signal, report: progressReporter(ctx, host.secrets), elicit: elicitation(mcp, ctx, host.secrets), client: mcp.server.getClientVersion()?.name ?? 'the MCP client' };
        const out = await running.track(controller, callTeam(host, tool, input, io));
        return callResult(out, host.secrets());
      },
    );
  }
  return mcp;
}

/** Progress notifications, when the client asked for them (a progressToken): each a rising count and a line. */
function progressReporter(ctx: ServerContext, secrets: () => string[]): CallIo['report'] {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let progress = 0;
  let queue = Promise.resolve();
  return (message) => {
    const params = { progressToken: token, progress: ++progress, message: redactSecrets(message, secrets()) };
    // In order, and never into the run: a client that went away only loses its progress lines.
    queue = queue.then(() => ctx.mcpReq.notify({ method: 'notifications/progress', params })).catch(() => {});
  };
}

/** Elicitation forms, when the client declared it can show them. */
function elicitation(mcp: McpServer, ctx: ServerContext, secrets: () => string[]): CallIo['elicit'] {
  const caps = mcp.server.getClientCapabilities()?.elicitation;
  // `elicitation: {}` (2025-06-18) means forms; later clients list `form` (and/or `url`) explicitly.
  const forms = !!caps && (Object.keys(caps).length === 0 || 'form' in caps);
  if (!forms) return undefined;
  return (form, signal) => ctx.mcpReq.elicitInput(redactSecrets(form, secrets()), { signal, timeout: ELICIT_TIMEOUT_MS });
}

/** A person may take a while to decide; the SDK's default 60 s request timeout would cut them off. */
const ELICIT_TIMEOUT_MS = 24 * 60 * 60 * 1000;
