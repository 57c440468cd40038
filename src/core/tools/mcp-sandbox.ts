import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { realOrSelf } from '../fs-checks.js';
import type { McpProgram, McpServerConfig } from './mcp-connection.js';
import { sandboxStatus, type SandboxSpec } from './sandbox/bwrap.js';
import { sandboxedLaunch } from './sandbox/sandboxed-launch.js';

/** What an agents file's local MCP servers are given inside the sandbox. */
export interface McpSandboxOptions {
  /** The workspace (writable inside, as for shell). */
  workspace: string;
  /** Folders shown read-only: the agents file's (or its trusted files'), adk's packages, the person's read paths. */
  readPaths: () => readonly string[];
  /** Paths that stay hidden (ADK_HOME). */
  hidden: readonly string[];
  /** A folder of adk's under which each agents folder's servers get a $HOME of their own that lasts (npx's and uv's caches); else an empty one each start. */
  homes?: string | undefined;
  /** The folder of the agents file (names the lasting $HOME). */
  baseDir: string;
}

/**
 * Starts an agents file's local MCP servers inside the shell's sandbox, as module tools run: the
 * network on (servers are often API clients), the workspace writable, their own pid namespace (no
 * process holding a key, adk included, to read), $HOME empty of the person's files. The code is
 * checked against the trust before each start; a file swapped after that check runs here, with no
 * more power than the sandboxed command that could have written it. Where bwrap cannot run, and for
 * a server marked `sandbox: off` (a trust power) or the person's own servers, undefined: on the host.
 */
export function mcpSandbox(options: McpSandboxOptions): (server: string, config: McpServerConfig, program: McpProgram) => Promise<McpProgram | undefined> {
  return async (_server, config, program) => {
    if (config.sandbox === 'off') return undefined;
    const workspace = realOrSelf(options.workspace);
    const { bwrap } = await sandboxStatus(process.env, workspace);
    if (!bwrap) return undefined;
    const cwd = realOrSelf(program.cwd ?? workspace);
    const env = { ...process.env, ...config.env };
    const spec: SandboxSpec = {
      workspace,
      network: true,
      readPaths: [...options.readPaths(), ...programFolders(program, env), ...(inside(workspace, cwd) ? [] : [cwd])],
      hidden: options.hidden,
      cwd,
      homeFolder: options.homes ? serverHome(options.homes, options.baseDir) : undefined,
    };
    return { ...sandboxedLaunch(bwrap, spec, [program.command, ...program.args], env), cwd: '/' };
  };
}

/**
 * The folders a server's command line names by absolute path (its program, a script, a data folder),
 * shown read-only: never one so broad it would show the home folder or the whole system again.
 */
function programFolders(program: McpProgram, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ? realOrSelf(env.HOME) : undefined;
  const out: string[] = [];
  for (const p of [program.command, ...program.args]) {
    if (!path.isAbsolute(p)) continue;
    const real = realOrSelf(p);
    let st;
    try {
      st = statSync(real);
    } catch {
      continue;
    }
    const folder = st.isDirectory() ? real : path.dirname(real);
    const broad = folder === '/' || (home !== undefined && inside(folder, home)) || SYSTEM_ROOTS.has(folder);
    out.push(broad ? real : folder);
  }
  return [...new Set(out)];
}

/** Folders whose whole content a server never needs: a path right in one of them is shown alone. */
const SYSTEM_ROOTS = new Set(['/tmp', '/var', '/home', '/root', '/run', '/etc', '/usr', '/opt']);

const inside = (root: string, p: string) => p === root || p.startsWith(`${root}/`);

/** The agents folder's own $HOME for its servers (0700), named by a hash of the folder. */
function serverHome(homes: string, baseDir: string): string {
  const dir = path.join(homes, createHash('sha256').update(realOrSelf(baseDir)).digest('hex').slice(0, 16));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** adk's own node_modules (zod for module tools, the MCP servers adk ships), shown read-only to trusted code. */
export function adkPackages(): string {
  const zod = realOrSelf(createRequire(import.meta.url).resolve('zod'));
  return zod.slice(0, zod.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
}
