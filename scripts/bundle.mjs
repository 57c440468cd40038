// Bundles the CLI (dist/adk/) and the runtime's CommonJS entry (dist/cjs/) with esbuild.
// tsc has already written dist/ (the ESM library and its declarations); this adds:
//  - dist/adk/boot.cjs: what bin/adk.js starts; it picks one of the two CLI bundles below;
//  - dist/adk/main.js: the whole CLI as ES modules, each command, the REPL, MCP and the Anthropic
//    client split into chunks loaded only when used: `adk chat` and an interactive `adk resume` run from it;
//  - dist/adk/cli.cjs: the CLI without the REPL as one CommonJS file, for every other command: V8
//    caches its compiled code between runs (Node 20 cannot for ES modules), so `adk run` starts fast;
//  - dist/cjs/: `require('adk')` and `require('adk/<subpath>')` for CommonJS callers: one bundle
//    (adk.cjs, dependencies external) holds the runtime and every subpath's exports, so each class
//    exists once whichever entry it comes from; index.cjs, stores.cjs, … each hand out their part.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fastInkOutput } from './fast-ink-output.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

// Native code and optional drivers stay outside the bundle: they are found in node_modules when used.
// BullMQ reads its Lua scripts from its own folder, so it (and ioredis) must be installed, not bundled.
const cliExternal = ['sqlite3', '@keyv/sqlite', '@keyv/redis', '@keyv/postgres', 'pg', 'react-devtools-core', 'bullmq', 'ioredis', '@google/genai', '@aws-sdk/client-bedrock-runtime'];

rmSync(`${root}dist/adk`, { recursive: true, force: true });
rmSync(`${root}dist/cjs`, { recursive: true, force: true });

const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', legalComments: 'none', logLevel: 'warning' };
// Both CLI bundles: less source to compile at each start; names are kept for stack traces.
const cli = { ...common, outdir: 'dist/adk', minifyWhitespace: true, minifySyntax: true, metafile: true };

await build({
  ...cli,
  plugins: [fastInkOutput],
  entryPoints: { main: 'src/cli/main.ts' },
  splitting: true,
  format: 'esm',
  external: cliExternal,
  define: { 'process.env.ADK_BUNDLED_VERSION': JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __adkCreateRequire } from 'node:module'; const require = __adkCreateRequire(import.meta.url);" },
  chunkNames: '[name]-[hash]',
}).then(({ metafile }) => refuseZodLocales(metafile));

await build({ ...common, entryPoints: { boot: 'src/cli/boot/boot.ts' }, outdir: 'dist/adk', outExtension: { '.js': '.cjs' }, format: 'cjs' });

// The REPL stays out of the CommonJS bundle (Ink uses top-level await): boot.cjs sends chat and an
// interactive resume to main.js, so reaching it here is a bug, reported as one.
const replOutside = {
  name: 'repl-outside',
  setup(b) {
    b.onResolve({ filter: /\/chat\/(start-repl|ask-trust|pick-session-inline)\.js$/ }, (args) => ({ path: args.path, namespace: 'repl-outside' }));
    b.onLoad({ filter: /.*/, namespace: 'repl-outside' }, () => ({
      contents: "const fail = () => { throw new Error('internal error: the REPL runs from dist/adk/main.js, not the CommonJS bundle'); }; export const startRepl = fail, askTrust = fail, pickSessionInline = fail;",
      loader: 'js',
    }));
  },
};

// Code V8 restores from its cache has lost what Node needs to run an import() (Node 20), so the
// bundle's one import() (src/core/dynamic-import.ts) is replaced: people's module files go to boot's
// import() (passed in as __adkImport); packages (optional peers, each with a CommonJS entry whose
// exports have the ES module's shape) are require()d, which spares starting Node's ES module loader.
const importOutside = {
  name: 'import-outside',
  setup(b) {
    b.onLoad({ filter: /src[\\/]core[\\/]dynamic-import\.ts$/ }, () => ({
      contents: `export function importModule(specifier) {
        if (specifier.startsWith('file:')) return __adkImport(specifier);
        return new Promise((resolve) => resolve(require(specifier)));
      }`,
      loader: 'js',
    }));
  },
};

await build({
  ...cli,
  entryPoints: { cli: 'src/cli/main.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // gpt-tokenizer (2.7 MB of tables, a dependency) is required from node_modules when first used:
  // every start reads this file, and the tokenizer is needed only once a session is long.
  external: [...cliExternal, 'gpt-tokenizer'],
  plugins: [replOutside, importOutside],
  // Node's own modules and gpt-tokenizer are require()d (no import() can run in cached code).
  supported: { 'dynamic-import': false },
  define: { 'process.env.ADK_BUNDLED_VERSION': JSON.stringify(pkg.version), 'import.meta.url': '__adkModuleUrl', 'import.meta.resolve': 'undefined' },
  // Strict, as the ES modules it is built from are (a banner before esbuild's own directive would void it).
  banner: { js: "'use strict';const __adkModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Any other import.meta would be an empty object in CommonJS: a build error, not a surprise at run time.
  logOverride: { 'empty-import-meta': 'error' },
  // ASCII only (the loader reads it as latin1, skipping UTF-8 decoding).
  charset: 'ascii',
}).then(({ metafile }) => {
  refuseZodLocales(metafile);
  refuseDynamicImports(metafile);
});
finishCommonJsBundle(`${root}dist/adk/cli.cjs`);

await buildCommonJsEntries();
writeCommonJsTypes(`${root}dist/core`, `${root}dist/cjs/types`);

/**
 * The runtime's types as CommonJS declarations (dist/cjs/types, `.d.cts`): under `module: node16`
 * a `.d.ts` of this `"type": "module"` package is an ES module, which `import x = require('adk')`
 * refuses (TS1471). Each declaration is copied with its relative imports pointed at the copies.
 */
function writeCommonJsTypes(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = `${from}/${entry.name}`;
    if (entry.isDirectory()) writeCommonJsTypes(src, `${to}/${entry.name}`);
    else if (entry.name.endsWith('.d.ts')) {
      mkdirSync(to, { recursive: true });
      const text = readFileSync(src, 'utf8').replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*?)\.js\2/g, '$1$2$3.cjs$2');
      writeFileSync(`${to}/${entry.name.replace(/\.d\.ts$/, '.d.cts')}`, text);
    }
  }
}

/**
 * The CommonJS entries: every `exports` subpath with an `import` condition gets a `require` one
 * (package.json), served from one bundle so `instanceof` holds across entries (an AdkError thrown by
 * adk/conversation is an AdkError of adk).
 */
async function buildCommonJsEntries() {
  const entries = Object.entries(pkg.exports)
    .filter(([, e]) => typeof e === 'object' && e.import)
    .map(([subpath, e]) => {
      const name = subpath === '.' ? 'index' : subpath.slice(2);
      const expected = `./dist/cjs/${name}.cjs`;
      if (e.require?.default !== expected) throw new Error(`package.json exports["${subpath}"].require.default should be "${expected}" (the CommonJS entry this script writes)`);
      const types = e.import.types.replace(/^\.\/dist\/core\//, './dist/cjs/types/').replace(/\.d\.ts$/, '.d.cts');
      if (e.require.types !== types) throw new Error(`package.json exports["${subpath}"].require.types should be "${types}" (the CommonJS types this script writes)`);
      return { subpath, name, source: e.import.default.replace(/^\.\/dist\/core\//, 'src/core/').replace(/\.js$/, '.ts') };
    });
  await build({
    ...common,
    stdin: { contents: entries.map((e) => `export * as ${JSON.stringify(e.name)} from './${e.source}';`).join('\n'), resolveDir: root, sourcefile: 'adk-commonjs.ts', loader: 'ts' },
    outfile: 'dist/cjs/adk.cjs',
    format: 'cjs',
    packages: 'external',
    // import.meta only finds packages from where the code is (postgres' pg, the module host's zod):
    // from the bundle's own file here. Any other import.meta would be empty: a build error.
    define: { 'import.meta.url': '__adkModuleUrl', 'import.meta.resolve': 'undefined' },
    banner: { js: "'use strict';const __adkModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    logOverride: { 'empty-import-meta': 'error' },
  });
  for (const e of entries) {
    const spec = e.subpath === '.' ? 'adk' : `adk/${e.name}`;
    writeFileSync(`${root}dist/cjs/${e.name}.cjs`, `'use strict';\n// require('${spec}'): its part of the one CommonJS bundle.\nmodule.exports = require('./adk.cjs')[${JSON.stringify(e.name)}];\n`);
  }
}

/** `import { z } from 'zod'` or a dynamic import('zod') pulls in all of zod's locales (~300 KB at every start). */
function refuseZodLocales(metafile) {
  const bundled = Object.values(metafile.outputs).flatMap((o) => Object.entries(o.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f));
  const locales = bundled.filter((f) => /zod\/v4\/locales\/(?!(en|index)\.)/.test(f));
  if (locales.length) throw new Error(`the CLI bundle includes zod locales (${locales.join(", ")}): import zod as \`import * as z from 'zod'\`, never dynamically`);
}

/**
 * Checks the CommonJS bundle and heads it with `//adk-build:<hash of the rest>`, which names its code
 * cache (src/cli/boot/cached-commonjs.ts).
 */
function finishCommonJsBundle(file) {
  const bytes = readFileSync(file);
  const at = bytes.findIndex((b) => b > 0x7f);
  // ASCII only: the loader reads it as latin1, skipping UTF-8 decoding.
  if (at >= 0) throw new Error(`${file} has a non-ASCII byte at ${at}`);
  const text = bytes.toString('latin1');
  if (!text.startsWith("'use strict';")) throw new Error(`${file} does not start in strict mode`);
  if (!text.includes('__adkImport(')) throw new Error(`${file} does not load people's modules through __adkImport: src/core/dynamic-import.ts was not replaced`);
  writeFileSync(file, `//adk-build:${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}\n${text}`, 'latin1');
}

/**
 * The CommonJS bundle turns import() into require(): right for Node's modules and gpt-tokenizer, wrong
 * for optional peers (a CommonJS entry's `default` differs) and people's ES modules: those go through
 * importModule (src/core/dynamic-import.ts).
 */
function refuseDynamicImports(metafile) {
  const allowed = (path) => path.startsWith('node:') || builtinModules.includes(path) || path === 'gpt-tokenizer';
  const found = Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import' && i.external && !allowed(i.path)).map((i) => i.path));
  if (found.length) throw new Error(`dist/adk/cli.cjs would require() ${found.join(', ')} where the source says import(): load it with importModule (src/core/dynamic-import.ts)`);
}
