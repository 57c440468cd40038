import { moduleToolWorker } from './worker-main.js';

/** The environment variable that carries the module's location and export into its process. */
export const MODULE_DATA_ENV = 'ADK_MODULE_TOOL_DATA';
/** The environment variable that names the folder of checked copies (pinned-code.ts), when there is one. */
export const MODULE_PINS_ENV = 'ADK_MODULE_PINS';

/**
 * ES module loader hooks (module.register) that compile the checked copy of a pinned file, whatever
 * its path holds by the time it loads: the import reads the path (for its format), the source is the copy's.
 */
const PIN_HOOKS = `
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let dir, copies;
export function initialize(data) { dir = data.dir; copies = data.copies; }
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (!url.startsWith('file:') || loaded.source == null) return loaded;
  const copy = copies[fileURLToPath(url)];
  return copy === undefined ? loaded : { ...loaded, source: readFileSync(dir + '/' + copy) };
}
`;

/** Installs the pins before anything of the module loads: ES imports through PIN_HOOKS, require() through CommonJS's compile step. */
const PIN_SHIM = `
const pinDir = process.env.${MODULE_PINS_ENV};
delete process.env.${MODULE_PINS_ENV};
if (pinDir) {
  const fs = require('node:fs');
  const Module = require('node:module');
  const copies = JSON.parse(fs.readFileSync(pinDir + '/index.json', 'utf8'));
  for (const ext of ['.js', '.cjs', '.json']) {
    const original = Module._extensions[ext];
    Module._extensions[ext] = function (module, filename) {
      const copy = copies[filename];
      if (copy === undefined) return original.call(this, module, filename);
      const text = fs.readFileSync(pinDir + '/' + copy, 'utf8').replace(/^\\uFEFF/, '');
      if (ext === '.json') module.exports = JSON.parse(text);
      else module._compile(text, filename);
    };
  }
  Module.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(PIN_HOOKS)}), { data: { dir: pinDir, copies } });
}
`;

/**
 * The source a module tool's own process runs (`node -e`): the worker's code (worker-main.ts) with a
 * port over stdin and stdout, one JSON message a line. The module's own output goes to stderr, so it
 * never mixes with the messages. Self-contained: it is sent as text, as the worker's code is.
 */
export function childBootSource(): string {
  const shim = `
const data = JSON.parse(process.env.${MODULE_DATA_ENV});
delete process.env.${MODULE_DATA_ENV};
const listeners = [];
// Node's own stdout (synchronous on a Linux pipe, EAGAIN handled): fs.writeSync(1) fails on a full pipe.
const toAdk = process.stdout.write.bind(process.stdout);
const parentPort = {
  postMessage: (m) => toAdk(JSON.stringify(m) + '\\n'),
  on: (event, f) => { if (event === 'message') listeners.push(f); },
};
process.stdout.write = process.stderr.write.bind(process.stderr);
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let i = pending.indexOf('\\n'); i >= 0; i = pending.indexOf('\\n')) {
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    if (line) for (const f of listeners) f(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
const workerRequire = (id) => (id === 'node:worker_threads' ? { parentPort, workerData: data } : require(id));
`;
  return `${shim}\n${PIN_SHIM}\n(${String(moduleToolWorker)})();\n`;
}
