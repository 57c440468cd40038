// Bundles the CLI (dist/adk/) and the runtime's CommonJS entry (dist/cjs/) with esbuild.
// tsc has already written dist/ (the ESM library and its declarations); this adds:
//  - dist/adk/main.js: the whole CLI in one file, each command, the REPL, MCP and the Anthropic
//    client split into chunks loaded only when used, so `adk --version` and `adk run` parse little;
//  - dist/cjs/index.cjs: `require('adk')` for CommonJS callers (dependencies stay external).
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

// Native code and optional drivers stay outside the bundle: they are found in node_modules when used.
// BullMQ reads its Lua scripts from its own folder, so it (and ioredis) must be installed, not bundled.
const cliExternal = ['sqlite3', '@keyv/sqlite', '@keyv/redis', '@keyv/postgres', 'pg', 'react-devtools-core', 'bullmq', 'ioredis'];

rmSync(`${root}dist/adk`, { recursive: true, force: true });
rmSync(`${root}dist/cjs`, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/adk',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: cliExternal,
  define: { 'process.env.ADK_BUNDLED_VERSION': JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __adkCreateRequire } from 'node:module'; const require = __adkCreateRequire(import.meta.url);" },
  chunkNames: '[name]-[hash]',
  // Less source to compile at each start (Node 20 has no compile cache); names are kept for stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});

await build({
  absWorkingDir: root,
  entryPoints: { index: 'src/core/index.ts' },
  outdir: 'dist/cjs',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  legalComments: 'none',
  logLevel: 'warning',
});
