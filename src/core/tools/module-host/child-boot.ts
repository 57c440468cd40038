import { moduleToolWorker } from './worker-main.js';

/** The environment variable that carries the module's location and export into its process. */
export const MODULE_DATA_ENV = 'ADK_MODULE_TOOL_DATA';
/** The environment variable that names the folder of checked copies (pinned-code.ts), when there is one. */
export const MODULE_PINS_ENV = 'ADK_MODULE_PINS';

/**
 * What the loader hooks decide for a file a module tool loads: its checked copy (pinned-code.ts),
 * whatever its path holds by now; the disk for a package under node_modules (packages count by name
 * and version); for any other file, no load at all: a path swapped for a link after the check, or a
 * file the check never saw, is not the trusted code. Text shared by both kinds of hooks below.
 */
const PIN_RULE = `
const packaged = (p) => p.split('/').includes('node_modules');
function pinnedSource(p, read) {
  const copy = copies[p];
  if (copy !== undefined) return read(dir + '/' + copy);
  if (packaged(p)) return undefined;
  const e = new Error('module tool: ' + p + ' is not part of the code that was trusted, so it is not loaded (run adk trust to review the change)');
  e.code = 'ADK_UNTRUSTED_CODE';
  throw e;
}
`;

/** ES module loader hooks for module.register (Node 20): the import reads the path (for its format), the source is the copy's. */
const PIN_HOOKS = `
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let dir, copies;
export function initialize(data) { dir = data.dir; copies = data.copies; }
${PIN_RULE}
export async function load(url, context, next) {
  if (!url.startsWith('file:')) return next(url, context);
  const source = pinnedSource(fileURLToPath(url), readFileSync);
  const loaded = await next(url, context);
  return source === undefined || loaded.source == null ? loaded : { ...loaded, source };
}
`;

/**
 * Installs the pins before anything of the module loads: synchronous hooks where Node has them
 * (module.registerHooks: import and require alike, require() of an ES module included), else
 * PIN_HOOKS; and CommonJS's compile step either way, for what reaches it.
 */
const PIN_SHIM = `
const pinDir = process.env.${MODULE_PINS_ENV};
delete process.env.${MODULE_PINS_ENV};
if (pinDir) {
  const fs = require('node:fs');
  const { fileURLToPath } = require('node:url');
  const Module = require('node:module');
  const dir = pinDir;
  const copies = JSON.parse(fs.readFileSync(dir + '/index.json', 'utf8'));
  ${PIN_RULE}
  const text = (bytes) => { const t = bytes.toString('utf8'); return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t; };
  for (const ext of ['.js', '.json', '.node']) {
    const original = Module._extensions[ext];
    Module._extensions[ext] = function (module, filename) {
      const bytes = pinnedSource(filename, fs.readFileSync);
      if (bytes === undefined) return original.call(this, module, filename);
      if (ext === '.node') throw new Error('module tool: ' + filename + ' is a native addon outside node_modules; it cannot be pinned, so it is not loaded');
      if (ext === '.json') module.exports = JSON.parse(text(bytes));
      else module._compile(text(bytes), filename);
    };
  }
  if (typeof Module.registerHooks === 'function') {
    Module.registerHooks({
      load(url, context, next) {
        if (!url.startsWith('file:')) return next(url, context);
        const source = pinnedSource(fileURLToPath(url), fs.readFileSync);
        const loaded = next(url, context);
        return source === undefined || loaded.source == null ? loaded : { ...loaded, source };
      },
    });
  } else {
    Module.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(PIN_HOOKS)}), { data: { dir, copies } });
  }
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
