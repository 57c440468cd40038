// Records the URL of every module resolved from now on (a resolve hook on its own thread).
// `const loads = recordLoads(); …; const urls = await loads.stop();`
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

export function recordLoads() {
  const { port1, port2 } = new MessageChannel();
  const loaded = [];
  port1.on('message', (url) => loaded.push(url));
  const hooks = `
let port;
export async function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
  return {
    async stop() {
      await new Promise((r) => setTimeout(r, 100)); // let the hook thread's messages arrive
      port1.close();
      return loaded;
    },
  };
}
