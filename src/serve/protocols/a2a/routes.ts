import type { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { Context, Hono } from 'hono';
import { stream as honoStream } from 'hono/streaming';
import { redactJsonText } from '../../../core/store/redact.js';
import type { ServedHub } from '../../served-session.js';
import { AdkExecutor } from './executor.js';

export interface A2aOptions {
  /** The served root agents (name, description); the first is the one at /.well-known/agent-card.json. */
  agents: ReadonlyArray<{ name: string; description: string }>;
  version: string;
  /** The server needs a bearer token (told in the card's security schemes). */
  bearer: boolean;
}

/**
 * A2A (a2a-protocol.org): each served agent at `/a2a/<agent>` over JSON-RPC, v1.0 (`SendMessage`…)
 * and v0.3 (`message/send`, `message/stream`, `tasks/get`, `tasks/cancel`, chosen by the
 * `A2A-Version` header as the SDK does). The agent cards are public (auth.ts): a client reads in the
 * card how to authenticate before it has a credential; they hold names and descriptions only.
 */
export function addA2aRoutes(app: Hono, hub: ServedHub, o: A2aOptions & { secrets: readonly string[] }): void {
  const handlers = new Map<string, { v1: JsonRpcTransportHandler; v03: LegacyJsonRpcTransportHandler; card: (origin: string) => AgentCard }>();
  const taskStore = new InMemoryTaskStore();
  for (const a of o.agents) {
    const card = (origin: string) => agentCard(a, `${origin}/a2a/${encodeURIComponent(a.name)}`, o);
    // The card's URL is read per request (the host a client used); the handler's copy only validates versions.
    const handler = new DefaultRequestHandler(card('http://localhost'), taskStore, new AdkExecutor(hub, a.name));
    handlers.set(a.name, { v1: new JsonRpcTransportHandler(handler), v03: new LegacyJsonRpcTransportHandler(handler), card });
  }
  const origin = (c: Context) => new URL(c.req.url).origin;
  const first = o.agents[0];
  if (first) app.get('/.well-known/agent-card.json', (c) => c.json(handlers.get(first.name)!.card(origin(c))));
  app.get('/a2a/:agent/.well-known/agent-card.json', (c) => {
    const h = handlers.get(c.req.param('agent'));
    return h ? c.json(h.card(origin(c))) : c.json({ error: { code: 'unknown_agent', message: `no agent '${c.req.param('agent')}' is served over A2A` } }, 404);
  });
  app.post('/a2a/:agent', async (c) => {
    const h = handlers.get(c.req.param('agent'));
    if (!h) return c.json({ jsonrpc: '2.0', id: null, error: { code: -32601, message: `no agent '${c.req.param('agent')}' is served over A2A` } }, 404);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await c.req.text()) as Record<string, unknown>;
    } catch {
      return c.json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'the body is not valid JSON' } });
    }
    const version = c.req.header('a2a-version') ?? '0.3';
    const legacy = version === '0.3';
    const context = new ServerCallContext({ requestedVersion: version });
    const result = legacy ? await h.v03.handle(body, context) : await h.v1.handle(body, context);
    const json = (v: unknown) => redactJsonText(JSON.stringify(v), o.secrets);
    if (!result || typeof (result as AsyncGenerator)[Symbol.asyncIterator] !== 'function') return c.body(json(result), 200, { 'content-type': 'application/json' });
    c.header('content-type', 'text/event-stream');
    c.header('cache-control', 'no-cache');
    return honoStream(c, async (s) => {
      for await (const event of result as AsyncGenerator<unknown>) await s.write(`data: ${json(event)}\n\n`);
    });
  });
}

function agentCard(a: { name: string; description: string }, url: string, o: A2aOptions): AgentCard {
  return {
    name: a.name,
    description: a.description || `the adk agent ${a.name}`,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: undefined,
    version: o.version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: o.bearer ? { bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'adk serve token', scheme: 'Bearer', bearerFormat: '' } } } } : {},
    securityRequirements: o.bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [{ id: a.name, name: a.name, description: a.description || a.name, tags: ['adk'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  } as AgentCard;
}
