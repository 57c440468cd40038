import { afterEach } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, ScriptedChatModel, type ScriptedReply, type Tool } from '../../src/core/index.js';
import { openAdkStores, type AdkStores } from '../../src/core/store/index.js';
import { SessionHub } from '../../src/serve/session-hub.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';

export const TOKEN = 'test-token-34-0123456789';
/** Where the fake team says its agents file is: a client must never see it. */
export const AGENTS_FILE = `${process.cwd()}/private/agents.yaml`;

/**
 * `adk serve`'s app on a loopback port with a token, over an in-memory store: one `assistant` agent
 * with a scripted model and a `touch` tool that asks for approval. Servers close after each test.
 */
export function useServedApp() {
  const open: Array<{ server: RunningServer; stores: AdkStores }> = [];
  afterEach(async () => {
    for (const { server, stores } of open.splice(0)) {
      await server.close({ cancel: true });
      await stores.close();
    }
  });
  return async (replies: ScriptedReply[]) => {
    const stores = await openAdkStores('memory://');
    const model = new ScriptedChatModel(replies);
    const touch: Tool<{ name: string }> = { name: 'touch', description: 'Makes a file.', parameters: z.object({ name: z.string() }), execute: ({ name }) => `made ${name}` };
    const team = () => ({ agent: new ChatModelAgent({ name: 'assistant', description: 'helps', model, tools: [touch], approval: ['touch'] }) });
    const hub = new SessionHub({
      stores,
      newTeam: async (agent) => {
        // As the CLI words it: the agents file's absolute path is in the message.
        if (agent && agent !== 'assistant') throw new Error(`agent '${agent}' is not defined in ${AGENTS_FILE}; defined: assistant`);
        return team();
      },
      sessionTeam: async () => team(),
    });
    const agents = { default: 'assistant', teams: [{ name: 'assistant', type: 'chat', tools: ['touch'], approval: ['touch'], markers: ['default'], children: [] }] };
    const server = await startServer({ hub, agents: () => agents, token: TOKEN, version: '0.0.0-test' }, { host: '127.0.0.1', port: 0 });
    open.push({ server, stores });
    const call = (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const headers = new Headers(init.headers);
      if (init.json !== undefined) headers.set('content-type', 'application/json');
      headers.set('authorization', `Bearer ${TOKEN}`);
      return fetch(`${server.url}${path}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
    };
    const newSession = async () => ((await (await call('/v1/sessions', { method: 'POST', json: {} })).json()) as { id: string }).id;
    return { server, call, newSession };
  };
}
