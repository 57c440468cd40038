import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { realOrSelf } from '../fs-checks.js';
import type { McpProgram, McpServerConfig } from './mcp-config.js';
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

/** The variables a server inherits from adk (the MCP SDK's own list); everything else comes from its entry's `env`. */
const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/**
 * Starts an agents file's local MCP servers inside the shell's sandbox, as module tools run: the
 * network on (servers are often API clients), the workspace writable, their own pid namespace (no
 * process holding a key, adk included, to read), $HOME empty of the person's files. The code is
 * checked against the trust before each start; a file swapped after that check runs here, with no
 * more power than the sandboxed command that could have written it. A server marked `sandbox: off`
 * (a trust power) and the person's own servers: undefined, on the host. Where bwrap cannot run, a
 * server not marked so does not start (it was trusted as a sandboxed one), as hooks do not.
 */
export function mcpSandbox(options: McpSandboxOptions): (server: string, config: McpServerConfig, program: McpProgram) => Promise<McpProgram | undefined> {
  return async (server, config, program) => {
    if (config.sandbox === 'off') return undefined;
    const workspace = realOrSelf(options.workspace);
    const { bwrap, reason } = await sandboxStatus(process.env, workspace);
    if (!bwrap) throw new Error(`not started: it runs in the sandbox, and ${reason ?? 'there is none here'}; to run it on the host instead, set sandbox: off on MCP server '${server}' and trust the file again`);
    const cwd = serverFolder(server, program.cwd ?? workspace, workspace);
    // bwrap and the shell that opens its filter start with adk's own variables (an entry's LD_PRELOAD
    // must not reach them); the server's environment is set inside.
    const inherited = Object.fromEntries(INHERITED.flatMap((k) => (process.env[k] !== undefined ? [[k, process.env[k]!]] : [])));
    const spec: SandboxSpec = {
      workspace,
      network: true,
      readPaths: [...options.readPaths(), ...programFolders(program), ...(inside(workspace, cwd) ? [] : [cwd])],
      hidden: options.hidden,
      cwd,
      env: { ...inherited, ...config.env },
      homeFolder: options.homes ? serverHome(options.homes, options.baseDir, workspace) : undefined,
    };
    return { ...sandboxedLaunch(bwrap, spec, [program.command, ...program.args], process.env), cwd: '/', env: {} };
  };
}

/**
 * Where the server starts, as a real path. One written inside the workspace must stay inside it: a
 * link there (`tools -> ~`) is the workspace's to plant, and would show its target to the server.
 */
function serverFolder(server: string, written: string, workspace: string): string {
  const real = realOrSelf(written);
  if (inside(workspace, real) && inside(workspace, written)) return real;
  if ((inside(workspace, written) || inside(workspace, realOrSelf(path.dirname(written)))) && !inside(workspace, real)) {
    throw new Error(`not started: its cwd ${written} leads out of the workspace (to ${real}) through a link, which the workspace could have made; MCP server '${server}' starts only in a real folder`);
  }
  if (broad(real)) throw new Error(`not started: its cwd ${real} would show the server all of ${real}; give MCP server '${server}' a folder of its own`);
  return real;
}

/**
 * The folders a server's command line names by absolute path (its program, a script, a data folder),
 * shown read-only: for a file, the project it belongs to (the nearest folder above it with a
 * package.json, pyproject.toml or .git: its node_modules or .venv come with it), never one so broad
 * it would show the home folder or the whole system again.
 */
function programFolders(program: McpProgram): string[] {
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
    const folder = st.isDirectory() ? real : projectOf(path.dirname(real));
    out.push(broad(folder) ? real : folder);
  }
  return [...new Set(out)];
}

function projectOf(folder: string): string {
  for (let dir = folder; !broad(dir); dir = path.dirname(dir)) {
    if (['package.json', 'pyproject.toml', '.git'].some((m) => existsSync(path.join(dir, m)))) return dir;
  }
  return folder;
}

/** Folders whose whole content a server never needs: the root, the home folder and those above it, the system's roots. */
function broad(folder: string): boolean {
  const home = process.env.HOME ? realOrSelf(process.env.HOME) : undefined;
  return folder === '/' || (home !== undefined && inside(folder, home)) || SYSTEM_ROOTS.has(folder);
}

const SYSTEM_ROOTS = new Set(['/tmp', '/var', '/home', '/root', '/run', '/etc', '/usr', '/opt', '/srv', '/mnt', '/media']);

const inside = (root: string, p: string) => p === root || p.startsWith(`${root}/`);

/** A $HOME that lasts for this agents folder's servers in this workspace (0700): no other workspace's server writes it. */
function serverHome(homes: string, baseDir: string, workspace: string): string {
  const dir = path.join(homes, createHash('sha256').update(`${realOrSelf(baseDir)}\0${workspace}`).digest('hex').slice(0, 16));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** adk's own node_modules (zod for module tools, the MCP servers adk ships), shown read-only to trusted code. */
export function adkPackages(): string {
  const zod = realOrSelf(createRequire(import.meta.url).resolve('zod'));
  return zod.slice(0, zod.lastIndexOf(`${path.sep}node_modules${path.sep}`) + '/node_modules'.length);
}
