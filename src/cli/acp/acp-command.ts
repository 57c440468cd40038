import { agent, ndJsonStream, type AnyMessage, type Stream } from '@agentclientprotocol/sdk';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { openStores } from '../stores.js';
import { AcpServer, asRequestError, type AcpOptions } from './acp-server.js';

/**
 * `adk acp`: adk as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains,
 * Neovim, Emacs). stdout carries protocol messages only; adk's own lines go to stderr.
 */
export async function acpCommand(opts: AcpOptions): Promise<number> {
  const log = (line: string) => process.stderr.write(`adk acp: ${line}\n`);
  // Whatever else would print to stdout would corrupt the protocol stream.
  console.log = console.info = console.debug = (...args: unknown[]) => log(args.map(String).join(' '));
  const stores = await openStores();
  const server = new AcpServer(stores, { ...opts, agents: opts.agents ? resolve(opts.agents) : undefined }, log);
  const guarded = <T>(f: () => Promise<T> | T): Promise<T> =>
    Promise.resolve()
      .then(f)
      .catch((e: unknown) => {
        throw asRequestError(e);
      });
  const app = agent({ name: 'adk' })
    .onRequest('initialize', ({ params }) => server.initialize(params))
    .onRequest('authenticate', () => server.authenticate())
    .onRequest('session/new', ({ params, client }) => guarded(() => server.newSession(params, client)))
    .onRequest('session/load', ({ params, client }) => guarded(() => server.loadSession(params, client)))
    .onRequest('session/resume', ({ params, client }) => guarded(() => server.resumeSession(params, client)))
    .onRequest('session/close', ({ params }) => guarded(() => server.closeSession(params.sessionId)))
    .onRequest('session/list', ({ params }) => guarded(() => server.listSessions(params)))
    .onRequest('session/prompt', ({ params }) => guarded(() => server.session(params.sessionId).prompt(params.prompt)))
    .onRequest('session/set_mode', ({ params }) => guarded(() => void server.session(params.sessionId).setMode(params.modeId)))
    .onRequest('session/set_config_option', ({ params }) => guarded(() => server.setConfigOption(params)))
    .onNotification('session/cancel', ({ params }) => server.session(params.sessionId).cancel());
  const connection = app.connect(stdioStream());
  const stop = () => connection.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await connection.closed.catch((e: unknown) => log(`connection closed: ${(e as Error).message}`));
  await server.shutdown();
  await stores.close();
  return 0;
}

function stdioStream(): Stream {
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  return ndJsonStream(output, input) as Stream & { readable: ReadableStream<AnyMessage> };
}
