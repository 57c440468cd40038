import path from 'node:path';
import { ConfigError } from '../errors.js';
import { BUILTIN_TOOL_NAMES, builtinTools, isBuiltinToolName, type BuiltinToolConfig, type BuiltinToolOptions } from './builtin/index.js';
import { McpServerPool, type McpPoolOptions, type McpServerConfig } from './mcp.js';
import { adkPackages, mcpSandbox } from './mcp-sandbox.js';
import { isMcpToolNamed } from './mcp-tool.js';
import { shellEnvironment } from './builtin/shell.js';
import { ShellJobs } from './builtin/shell-jobs.js';
import { loadModuleTool, type ModuleToolSpec } from './module-tool.js';
import type { ModuleSandbox } from './module-host/module-process.js';
import { PinnedCode, type TrustedCode } from './module-host/pinned-code.js';
import { sandboxStatus } from './sandbox/bwrap.js';
import { realOrSelf } from '../fs-checks.js';
import { realpath } from 'node:fs/promises';
import type { Tool } from './tool.js';
import { parseAllowHosts } from './net/address-policy.js';

/** A tool as agents.yaml names it. */
export type ToolRef = string | { mcp: string } | ModuleToolSpec | { builtin: string; options: BuiltinToolConfig };

/** Settings of a ToolRegistry: where the tools work, the MCP servers they may start, and extra tools from code. */
export interface ToolRegistryOptions extends Omit<BuiltinToolOptions, 'workspaceRoot'> {
  /** The folder the file tools are confined to, `shell` runs in and MCP servers start in by default. */
  workspaceRoot: string;
  /** The folder of agents.yaml: module paths and MCP `cwd`s are relative to it. Default: workspaceRoot. */
  baseDir?: string | undefined;
  mcpServers?: Record<string, McpServerConfig> | undefined;
  mcp?: Omit<McpPoolOptions, 'cwd'> | undefined;
  /** Extra named tools (from code), looked up by name after the built-ins. */
  tools?: Tool[] | undefined;
  /**
   * Asked before module code or an MCP server (re)loads and before each module tool call: what
   * changed in the code that was trusted, or undefined. A change refuses the load.
   */
  codeGuard?: CodeGuard | undefined;
  /** The code that was trusted (hashes by file): a module tool's process sees these exact bytes, pinned at each start. */
  trustedCode?: TrustedCode | undefined;
  /** Where an agents file's local MCP servers keep a $HOME that lasts between starts (inside the sandbox); default: an empty one each start. */
  mcpHomes?: string | undefined;
}

export type CodeGuard = () => Promise<string | undefined>;

/**
 * Turns tool references into tools. Built-ins and extra tools resolve at once; MCP servers start
 * only when a reference needs them (`{ mcp }`, or a name that is no built-in), once, shared by all
 * agents. Call `close()` on exit to stop them.
 */
export class ToolRegistry {
  readonly pool: McpServerPool;
  readonly builtins: Readonly<Record<string, Tool>>;
  private readonly extras = new Map<string, Tool>();
  private readonly modules = new Map<string, Promise<Tool>>();
  private readonly baseDir: string;
  private readonly builtinOptions: BuiltinToolOptions;
  private readonly moduleClosers: Array<() => Promise<void>> = [];
  /** Shell commands the person moved to the background: the given `shellJobs` (whoever gave them stops them), else the registry's own, which `close()` stops. */
  readonly jobs: ShellJobs;
  private readonly ownsJobs: boolean;
  private readonly codeGuard: CodeGuard | undefined;
  private readonly pinned: PinnedCode | undefined;
  private readonly trustedCode: TrustedCode | undefined;

  constructor(options: ToolRegistryOptions) {
    const { workspaceRoot, baseDir, mcpServers = {}, mcp, tools = [], codeGuard, trustedCode, mcpHomes, ...builtinOptions } = options;
    this.codeGuard = codeGuard;
    this.trustedCode = trustedCode;
    // The copies never go where a sandboxed command can write (a TMPDIR inside the workspace).
    this.pinned = trustedCode ? new PinnedCode(trustedCode, [realOrSelf(path.resolve(workspaceRoot))]) : undefined;
    this.baseDir = path.resolve(baseDir ?? workspaceRoot);
    this.ownsJobs = !builtinOptions.shellJobs;
    this.jobs = builtinOptions.shellJobs ?? new ShellJobs();
    this.builtinOptions = { workspaceRoot, ...builtinOptions, shellJobs: this.jobs };
    this.builtins = builtinTools(this.builtinOptions);
    for (const t of tools) this.extras.set(t.name, t);
    const servers = Object.fromEntries(
      Object.entries(mcpServers).map(([name, c]) => [name, c.cwd ? { ...c, cwd: path.resolve(this.baseDir, c.cwd) } : c]),
    );
    // Remote servers follow fetch_url's network rules, with its allow-list.
    const allowHosts = mcp?.allowHosts ?? parseAllowHosts(builtinOptions.fetchAllowHosts);
    // No MCP tool takes a built-in's or a code tool's name (see McpServerPool's naming).
    const reservedNames = new Set([...BUILTIN_TOOL_NAMES, ...this.extras.keys()]);
    // Local servers of the agents file run in the shell's sandbox, unless the shell's sandbox is off.
    const sandbox =
      builtinOptions.shellSandbox === 'off'
        ? undefined
        : mcpSandbox({ workspace: path.resolve(workspaceRoot), readPaths: () => this.sandboxReadPaths(), hidden: process.env.ADK_HOME ? [process.env.ADK_HOME] : [], homes: mcpHomes, baseDir: this.baseDir });
    this.pool = new McpServerPool(servers, { ...mcp, cwd: path.resolve(workspaceRoot), codeGuard, allowHosts, reservedNames, ...(sandbox ? { sandbox } : {}) });
  }

  /** Names that resolve without starting anything, plus the tools of MCP servers started so far. */
  knownNames(): string[] {
    const mcpNames = Object.values(this.pool.startedToolNames()).flat();
    return [...new Set([...BUILTIN_TOOL_NAMES, ...this.extras.keys(), ...mcpNames])];
  }

  mcpServerNames(): string[] {
    return this.pool.serverNames();
  }

  /** Resolves references in order. Throws ConfigError for unknown names and duplicate tool names. */
  async resolve(refs: readonly ToolRef[]): Promise<Tool[]> {
    const out: Tool[] = [];
    const origin = new Map<string, { tool: Tool; from: string }>();
    for (const ref of refs) {
      for (const tool of await this.resolveOne(ref)) {
        const seen = origin.get(tool.name);
        if (seen?.tool === tool) continue;
        if (seen) throw new ConfigError(`tool name '${tool.name}' is provided twice: by ${seen.from} and by ${describeRef(ref)}`);
        origin.set(tool.name, { tool, from: describeRef(ref) });
        out.push(tool);
      }
    }
    // A command moved to the background is read with shell_output, so it comes with shell.
    const builtinShell = refs.some((r) => r === 'shell' || (typeof r === 'object' && r !== null && 'builtin' in r && r.builtin === 'shell'));
    if (builtinShell && !origin.has('shell_output')) out.push(this.builtins.shell_output);
    return out;
  }

  async resolveOne(ref: ToolRef): Promise<Tool[]> {
    if (typeof ref === 'string') return [await this.byName(ref)];
    if (ref && typeof ref === 'object' && 'builtin' in ref) {
      if (!isBuiltinToolName(ref.builtin)) throw new ConfigError(`unknown built-in tool '${ref.builtin}'`);
      return [builtinTools(withToolConfig(this.builtinOptions, ref.options))[ref.builtin]];
    }
    if (ref && typeof ref === 'object' && 'mcp' in ref) {
      if (!this.pool.has(ref.mcp)) {
        throw new ConfigError(`unknown MCP server '${ref.mcp}' (configured: ${this.pool.serverNames().join(', ') || 'none'})`);
      }
      try {
        return await this.pool.toolsFor(ref.mcp);
      } catch (e) {
        throw new ConfigError((e as Error).message);
      }
    }
    if (ref && typeof ref === 'object' && 'module' in ref) {
      const key = `${ref.module}#${ref.export ?? 'default'}`;
      let p = this.modules.get(key);
      if (!p) {
        p = loadModuleTool(this.baseDir, ref, {
          env: shellEnvironment(process.env, this.builtinOptions.shellEnv),
          onClose: (close) => this.moduleClosers.push(close),
          codeGuard: this.codeGuard,
          sandbox: () => this.moduleSandbox(),
        });
        this.modules.set(key, p);
        p.catch(() => this.modules.delete(key));
      }
      return [await p];
    }
    throw new ConfigError(`invalid tool reference ${JSON.stringify(ref)}: use a tool name, { mcp: server } or { module: path, export?: name }`);
  }

  /**
   * Where module tools run: the shell's sandbox (unless it is off), with the network (they are
   * trusted code, often API clients), the agents file's folder and adk's own packages (zod) readable.
   * What they gain is distance: no key in their memory or environment, and none in any process they
   * can see, adk's included.
   */
  private async moduleSandbox(): Promise<ModuleSandbox> {
    const workspace = await realpath(this.builtinOptions.workspaceRoot);
    const spec = {
      workspace,
      network: true,
      readPaths: this.sandboxReadPaths(),
      hidden: process.env.ADK_HOME ? [process.env.ADK_HOME] : [],
    };
    if (this.builtinOptions.shellSandbox === 'off') return { spec, pins: this.pinned?.pin() };
    return { bwrap: (await sandboxStatus(process.env, workspace)).bwrap, spec, pins: this.pinned?.pin() };
  }

  /** What trusted code (module tools, MCP servers) reads inside the sandbox: its folders, adk's packages (zod, MCP servers adk ships), the person's read paths. */
  private sandboxReadPaths(): string[] {
    return [...this.codeFolders(), adkPackages(), ...(this.builtinOptions.shellReadPaths ?? [])];
  }

  /**
   * The folders module code is read from: the agents file's, unless that is the home folder or above
   * it (`--agents ~/agents.yaml` would show all of `$HOME`: shell profiles that export keys); then
   * only the folders of the trusted files.
   */
  private codeFolders(): string[] {
    const home = process.env.HOME ? realOrSelf(process.env.HOME) : undefined;
    const base = realOrSelf(this.baseDir);
    const broad = base === '/' || (home !== undefined && (home === base || home.startsWith(`${base}/`)));
    if (!broad || !this.trustedCode) return [this.baseDir];
    const shown = Object.keys(this.trustedCode.files).map((rel) => {
      const file = realOrSelf(path.resolve(this.trustedCode!.dir, rel));
      const dir = path.dirname(file);
      // A file right in the broad folder is shown alone.
      return dir === base || dir === '/' || dir === home ? file : dir;
    });
    return [...new Set(shown)];
  }

  /** Stops the MCP servers, the module tools' processes and the background shell jobs (its own ones). */
  async close(): Promise<void> {
    if (this.ownsJobs) this.jobs.close();
    await Promise.all([this.pool.close(), ...this.moduleClosers.splice(0).map((c) => c())]);
    this.pinned?.release();
  }

  private async byName(name: string): Promise<Tool> {
    const builtin = Object.prototype.hasOwnProperty.call(this.builtins, name) ? this.builtins[name] : undefined;
    const direct = builtin ?? this.extras.get(name);
    if (direct) return direct;
    const failures: string[] = [];
    for (const server of this.pool.serverNames()) {
      try {
        // By the name it is offered as, or by the server's own (`tools: [add]` for mcp__calc__add).
        const tool = (await this.pool.toolsFor(server)).find((t) => isMcpToolNamed(t, server, name));
        if (tool) return tool;
      } catch (e) {
        failures.push((e as Error).message);
      }
    }
    const servers = this.pool.serverNames();
    const where = servers.length ? `, and no MCP server (${servers.join(', ')}) has it` : '';
    const failed = failures.length ? ` (${failures.join('; ')})` : '';
    throw new ConfigError(`unknown tool '${name}': it is not a built-in tool (${BUILTIN_TOOL_NAMES.join(', ')})${where}${failed}`);
  }
}

/** A tool reference as error messages name it: `'shell'`, `MCP server 'github'`, `module './tools.js' (export 'x')`. */
export function describeRef(ref: ToolRef): string {
  if (typeof ref === 'string') return `'${ref}'`;
  if ('mcp' in ref) return `MCP server '${ref.mcp}'`;
  if ('builtin' in ref) return `'${ref.builtin}'`;
  return `module '${ref.module}'${ref.export ? ` (export '${ref.export}')` : ''}`;
}

/** One agent's options of a built-in tool on top of the process-wide ones (lists add up). */
function withToolConfig(base: BuiltinToolOptions, config: BuiltinToolConfig): BuiltinToolOptions {
  return {
    ...base,
    ...(config.sandbox ? { shellSandbox: config.sandbox } : {}),
    ...(config.network !== undefined ? { shellNetwork: config.network } : {}),
    ...(config.env ? { shellEnv: [...(base.shellEnv ?? []), ...config.env] } : {}),
    ...(config.readPaths ? { shellReadPaths: [...(base.shellReadPaths ?? []), ...config.readPaths] } : {}),
    ...(config.allowHosts ? { fetchAllowHosts: [...(base.fetchAllowHosts ?? []), ...config.allowHosts] } : {}),
  };
}
