import type { ModelConfig, TeamConfig } from '../core/config/index.js';
import { realPathOrSelf } from './paths.js';
import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { defaultAdkHome } from '../core/store/store-url.js';
import type { AgentPermissionRules } from '../core/conversation/team.js';
import { fileURLToPath } from 'node:url';
import type { ShellJobs } from '../core/tools/builtin/shell-jobs.js';
import type { McpServerPool } from '../core/tools/mcp.js';
import type { Agent } from '../core/index.js';
import type { Tool } from '../core/tools/tool.js';
import { compactionOf, type TeamCompaction } from '../core/conversation/team.js';
import type { ModelPrice } from '../core/models/pricing.js';
import { CliError, ExitCode } from './exit-codes.js';
import { otelExporting } from './otel.js';
import { addConfigSecret } from './secrets.js';
import { recalledCode, rememberCode, TrustStore } from './trust.js';
import type { CodeManifest } from '../core/config/index.js';
import { parseAllowRule, type AllowRule } from '../core/agents/allow-rules.js';
import { projectAllowRules } from './settings.js';
import { readPermissionSettings } from './settings/permission-rules.js';
import { settingsPath } from './settings/settings-files.js';
import { checkPersonalCommand, personalLaunch } from './mcp/personal-launch.js';
import { CONTAINER_NOTICE, containerIsTheSandbox, shellSandboxFromEnv } from './shell-sandbox-env.js';
import { readUserServers } from './mcp/user-servers.js';
import type { McpServerEntry } from './mcp/server-entry.js';
import type { Hooks } from '../core/middlewares/hooks/middleware.js';
import type { BudgetLimits, DailyLimits } from '../core/agents/run-budget.js';

export interface TeamOptions {
  model?: string;
  /** `--fallback`: asked, after the entry's own `fallback:`, when a model is unavailable after its retries. */
  fallback?: string[] | undefined;
  agentsFile?: string;
  agentName?: string;
  /** The workspace: file tools are confined to it and `shell` runs in it. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Use the bundled file whatever the folder holds (a session that started on it). */
  bundled?: boolean;
  /** The content hash the session started with: a changed file is refused, never rebuilt. */
  expectHash?: string;
  trust?: TrustStore;
  /**
   * MCP servers the person configured in their editor (`adk acp`'s session/new): the root agent
   * gets their tools. They come from the person, not the folder, so folder trust does not gate them.
   */
  editorMcpServers?: Array<{ name: string } & McpServerEntry>;
  /**
   * Background shell jobs shared by every team one REPL loads (`/model`, `/agents`, `/resume` load
   * new ones): closing a team leaves them running; whoever made them stops them. Default: the team's own.
   */
  shellJobs?: ShellJobs;
  /** A folder's untrusted hooks throw UntrustedFolderHooksError (the REPL asks); otherwise they are left out, with a notice. */
  askFolderHooks?: boolean;
  /** Each turn's caps (`adk chat --max-cost`…): a turn that reaches one waits for the person to raise it. */
  budget?: BudgetLimits;
  /** Caps per day over every run on this store (`--max-daily-cost`…). */
  dailyBudget?: DailyLimits;
}

import { UntrustedAgentsFileError } from './untrusted-agents-file.js';

export { UntrustedAgentsFileError };

export interface Team {
  agent: Agent;
  /** Each turn's caps, as the face gave them. */
  budget?: BudgetLimits | undefined;
  /** Caps per day over every run on this store (`--max-daily-…`). */
  dailyBudget?: DailyLimits | undefined;
  /** Trace turns with OpenTelemetry: only when this process exports spans (`--otel`). */
  tracing: boolean;
  /** The agents.yaml name the team was built from; saved with the session (a supervisor's agent is named after its supervisor). */
  rootName: string;
  modelName: string;
  /** The context window of the team's first model, when known: the REPL's and JSONL's context meter. */
  contextWindow?: number;
  /** The first model's price per million tokens, when known: `/cost` and the status line. */
  price?: ModelPrice | undefined;
  /** How the conversation compacts between turns and on `/compact`: the root agent's summarize middleware. */
  compaction?: TeamCompaction;
  isDemo: boolean;
  /** The agents file the team came from, stored with the session so resume rebuilds the same team (unset: bundled). */
  agentsFile?: string;
  /** SHA-256 of the agents file's bytes, stored with the session: resume refuses a changed file. */
  agentsHash: string;
  /** The workspace the tools work in (a realpath), stored with the session. */
  workspace: string;
  /** The agent tree's tool names, for `/tools`. */
  toolNames: string[];
  /** Calls that run without asking: agents.yaml `allow:`, this folder's `adk config set allow` and the settings files' `permissions.allow`. */
  allowRules: AllowRule[];
  /** The settings files' `permissions.deny`: calls never run. */
  denyRules: AllowRule[];
  /** Agents' own `permission_mode`, `allow`, `deny` (agents file), by agent name. */
  agentPermissions?: ReadonlyMap<string, AgentPermissionRules> | undefined;
  /** The team as `adk agents` prints it, for `/agents`. */
  tree: string;
  /** The agents file's teams (its root agents), for `/agents` to switch to. */
  roots: Array<{ name: string; description: string }>;
  /** The `models:` entries, for `/model` to list what their endpoints offer. */
  modelConfigs: ModelConfig[];
  /**
   * Said at start when shell commands of this team would run unsandboxed although the sandbox was
   * wanted (no bwrap, or it cannot make a safe sandbox here): a person must not think they are contained.
   */
  sandboxNotice: Promise<string | undefined>;
  /** Tools that ask every time whatever grants and allow rules say (shell without its sandbox). */
  alwaysAsk: readonly string[];
  /** The built-in shell tool as this team's registry set it up (sandbox, environment allow-list, output cap): a command file's `` !`cmd` `` runs with it. */
  shell?: Tool | undefined;
  /** Settles once `alwaysAsk` is known (the sandbox probe answered). */
  alwaysAskKnown: Promise<unknown>;
  /** Why `alwaysAsk` overrules a grant, said with such an approval. */
  alwaysAskReason: string | undefined;
  /** The team's MCP servers (resources, prompts, status for `/mcp`). */
  mcp: McpServerPool;
  /** Ctrl-B: moves the running shell commands to the background; returns their job ids. */
  background(): string[];
  /** Kills the background jobs now (adk is stopping); close() does it too, unless they were given in TeamOptions. */
  stopJobs(): void;
  close(): Promise<void>;
  /** The hooks that run (settings files and agents.yaml), for `/hooks` and the session events. */
  hooks?: Hooks | undefined;
  /** Said at start: a folder's hooks left out (untrusted), or entries of a settings file that are wrong. */
  hooksNotice?: string | undefined;
}

export const BUNDLED_AGENTS_FILE = fileURLToPath(new URL('../../agents.yaml', import.meta.url));
export const DEMO_TEAM = 'demo';

/** True when nothing points at a real model endpoint: no key, no base URL, no --model. */
export function wantsDemo(opts: TeamOptions): boolean {
  const env = opts.env ?? process.env;
  return !opts.model && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL && (!env.ADK_MODEL || env.ADK_MODEL === 'demo');
}

/**
 * Builds the team from agents.yaml (`--agents`, else ./agents.yaml, else the bundled file).
 * Without any model configuration the bundled file starts on its offline `demo` team.
 */
/** The agents file `opts` points at, validated, fingerprinted and, unless bundled, trusted. */
export async function loadTeamConfig(opts: TeamOptions): Promise<{ config: TeamConfig; location: { path: string; source: string }; hash: string; code: CodeManifest; text: string; cwd: string }> {
  const env = opts.env ?? process.env;
  const cwd = realWorkspace(opts.cwd ?? process.cwd());
  const { findAgentsFile, validateConfig, formatProblems, configPowers, teamFingerprint, hasCode, describeCodeChange } = await import('../core/config/index.js');
  const found = opts.bundled ? { path: BUNDLED_AGENTS_FILE, source: 'bundled' as const } : findAgentsFile(cwd, opts.agentsFile, BUNDLED_AGENTS_FILE);
  // Built from its real location: a symlinked agents.yaml cannot borrow a trusted file's hash while
  // its module paths resolve in another folder.
  const location = { ...found, path: realPathOrSelf(found.path) };
  // Read once: the bytes hashed are the bytes validated and built (no swap in between).
  let text: string;
  try {
    text = readFileSync(location.path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`${location.path}: ${code === 'ENOENT' ? 'file not found' : (e as Error).message}`, ExitCode.usage);
  }
  const result = validateConfig({ text, file: location.path }, { env });
  if (!result.ok || !result.config) throw new CliError(formatProblems(result.problems), ExitCode.usage);
  const config = result.config;
  // The file and the code it runs (module tools, MCP scripts, what they import).
  const { hash, code } = await teamFingerprint(text, config);
  if (opts.expectHash && opts.expectHash !== hash && !upgradedBundle(location.source, cwd)) {
    const was = recalledCode(opts.expectHash, env);
    const what = (was && describeCodeChange(was, code)) ?? (was ? `${location.path} changed` : `${location.path} or the code it runs changed`);
    throw new CliError(
      `${what} since this session started, so its team is not rebuilt from it ` +
        '(a model or a command may have written it). Start a new session (adk run / adk chat) to use the new code.',
      ExitCode.usage,
    );
  }
  if (location.source !== 'bundled') {
    const powers = configPowers(config, env);
    if (powers.length && !(opts.trust ?? new TrustStore()).isTrusted(location.path, hash)) throw new UntrustedAgentsFileError(location.path, hash, powers);
  }
  if (hasCode(code)) rememberCode(hash, code, env);

  return { config, location, hash, code, text, cwd };
}

export async function loadTeam(opts: TeamOptions): Promise<Team> {
  const env = opts.env ?? process.env;
  const { createTeam, agentTree, renderAgentTree } = await import('../core/config/index.js');
  const { config, location, hash, code, cwd } = await loadTeamConfig(opts);
  const { hasCode, codeManifest, describeCodeChange } = await import('../core/config/index.js');
  // Before any of it loads again (a module tool's worker restarts, an MCP server restarts, a call
  // imports lazily), the code must still be what was trusted: a tool or a sandboxed command of this
  // session may have written it, and it would run outside the sandbox.
  // Checked against the file's own servers: the editor's (added below) are the person's, not the folder's.
  const trusted = { ...config, mcpServers: new Map(config.mcpServers) };
  const codeGuard = hasCode(code) ? async () => describeCodeChange(code, await codeManifest(trusted)) : undefined;
  const demoFallback = !opts.agentName && location.source === 'bundled' && wantsDemo(opts) && config.agents.has(DEMO_TEAM);
  const rootName = opts.agentName ?? (demoFallback ? DEMO_TEAM : config.default);
  if (!config.agents.has(rootName)) {
    throw new CliError(`agent '${rootName}' is not defined in ${location.path}; defined: ${[...config.agents.keys()].join(', ')}`);
  }
  addPersonalMcpServers(config, rootName, opts.editorMcpServers ?? [], cwd, env, 'editor');
  // The person's own servers (`adk mcp add --scope user`) join teams of the bundled file or of a file
  // they trusted: an unreviewed agents.yaml must not steer their credentialed tools.
  const ownFile = location.source === 'bundled' || (opts.trust ?? new TrustStore()).isTrusted(location.path, hash);
  if (ownFile) addPersonalMcpServers(config, rootName, Object.entries(readUserServers(env)).map(([name, e]) => ({ name, ...e })), cwd, env, 'user');

  // Credentials a remote MCP server is sent (`Authorization: Bearer ${TOKEN}`) are secrets from here on.
  for (const s of config.mcpServers.values()) for (const [k, v] of Object.entries(s.headers ?? {})) if (SECRET_HEADER.test(k)) addConfigSecret(v);
  const { ToolRegistry } = await import('../core/tools/registry.js');
  const { liveMcpToolsMiddleware } = await import('../core/middlewares/live-mcp-tools.js');
  const { modelWithFallbacks, modelSecrets } = await import('../core/config/model-from-config.js');
  const { retryPolicyFromEnv } = await import('../core/models/retry.js');
  // Remote servers log in with tokens `adk mcp login` stored; a run never opens a browser itself.
  const oauth = [...config.mcpServers.values()].some((s) => s.url) ? await import('../core/tools/mcp-oauth/index.js') : undefined;
  oauth?.setOAuthSecretSink(addConfigSecret);
  // Hooks first: an untrusted folder's hooks are asked about before anything starts.
  const { teamHooks } = await import('./team-hooks.js');
  const hooks = await teamHooks(config, cwd, env, opts.trust ?? new TrustStore(), opts.askFolderHooks);
  const registry = new ToolRegistry({
    workspaceRoot: cwd,
    // `host,host:port cidr`: commas and spaces both separate entries, as the README writes it.
    fetchAllowHosts: env.ADK_FETCH_ALLOW_HOSTS?.split(/[\s,]+/).filter(Boolean),
    shellEnv: env.ADK_SHELL_ENV?.split(/[\s,]+/).filter(Boolean),
    shellReadPaths: env.ADK_SANDBOX_READ_PATHS?.split(/[\s,]+/).filter(Boolean),
    shellSandbox: shellSandboxFromEnv(env),
    // adk's home (the person's own commands and settings, trust; inside the workspace when it is the
    // home folder) and the folder's settings files (their deny rules bind without trust): never a model's to write.
    protectedPaths: [defaultAdkHome(env), settingsPath('project', cwd, env), settingsPath('local', cwd, env)],
    baseDir: config.dir,
    mcpServers: Object.fromEntries([...config.mcpServers].map(([name, s]) => [name, s])),
    shellJobs: opts.shellJobs,
    mcpHomes: join(defaultAdkHome(env), 'mcp-home'),
    codeGuard,
    ...(codeGuard ? { trustedCode: { dir: config.dir, files: code.files } } : {}),
    ...(oauth ? { mcp: { authProvider: (name: string, url: string) => oauth.oauthProvider(name, url, { interactive: false, env }) } } : {}),
  });
  const modelNames = new Set<string>();
  let contextWindow: number | undefined;
  let price: ModelPrice | undefined;
  const toolNames = new Set<string>();
  try {
    const agent = await createTeam(
      config,
      {
        model: (mc) => {
          // The fallbacks' keys are the run's secrets too.
          for (const entry of [mc, ...[...(mc.fallback ?? []), ...(opts.fallback ?? [])].flatMap((n) => config.models.get(n) ?? [])]) {
            for (const secret of modelSecrets(entry, env)) addConfigSecret(secret);
          }
          const m = modelWithFallbacks(mc, config.models, env, opts.model, opts.fallback);
          modelNames.add(m.modelName);
          contextWindow ??= m.contextWindow;
          price ??= m.price;
          return m;
        },
        tools: async (refs) => {
          const tools = await registry.resolve(refs);
          for (const t of tools) toolNames.add(t.name);
          return tools;
        },
        retry: retryPolicyFromEnv(env),
        a2aAllowHosts: env.ADK_FETCH_ALLOW_HOSTS?.split(/[\s,]+/).filter(Boolean),
        liveMcpTools: (servers) => liveMcpToolsMiddleware(servers, (s) => registry.pool.currentTools(s)),
        workspace: cwd,
        // The person's own skills first: a cloned repository cannot replace one by reusing its name.
        skillDirs: [join(defaultAdkHome(env), 'skills'), join(cwd, '.adk', 'skills')],
        hooks: hooks.hooks,
        userAgentsMd: join(defaultAdkHome(env), 'AGENTS.md'),
        // A Claude Code user's own CLAUDE.md, as Claude Code reads it for every project.
        ...(env.HOME ? { userMemoryFiles: [join(env.HOME, '.claude', 'CLAUDE.md')] } : {}),
      },
      rootName,
    );
    const names = [...modelNames];
    const permissionRules = settingsRules(cwd, env);
    // The sandbox probe runs alongside the start, not before it. Without the sandbox it was meant to
    // have, shell asks every time whatever grants or allow rules say; until the probe answers, too.
    // A gated call waits for the probe (Conversation: alwaysAskKnown), so "not answered yet" never decides it.
    const sandboxMissing = wantsSandbox(config, env) ? unsandboxedReason(cwd) : Promise.resolve(undefined);
    const sandboxNotice = containerIsTheSandbox(env) ? Promise.resolve(CONTAINER_NOTICE) : sandboxMissing.then((why) => why && unsandboxedNotice(why));
    let unsandboxed = wantsSandbox(config, env) ? 'the sandbox probe has not answered' : undefined;
    void sandboxMissing.then(
      (why) => (unsandboxed = why),
      (e: Error) => (unsandboxed = `the sandbox probe failed: ${e.message}`),
    );
    return {
      agent,
      rootName,
      modelName: names.join(', ') || 'none',
      contextWindow,
      price,
      compaction: compactionOf(agent),
      // The file's caps, each overridden by the face's own flag for it.
      ...(opts.budget || config.budget ? { budget: { ...config.budget, ...opts.budget } } : {}),
      ...(opts.dailyBudget ? { dailyBudget: opts.dailyBudget } : {}),
      tracing: otelExporting(),
      isDemo: names.length > 0 && names.every((n) => n === 'demo'),
      sandboxNotice,
      alwaysAskKnown: sandboxMissing,
      get alwaysAskReason() {
        return unsandboxed && `shell commands run without a sandbox here (${unsandboxed}), so shell asks before every command`;
      },
      get alwaysAsk() {
        return unsandboxed ? ['shell'] : [];
      },
      agentsFile: location.source === 'bundled' ? undefined : location.path,
      agentsHash: hash,
      workspace: cwd,
      toolNames: [...toolNames].sort(),
      allowRules: [...config.allow, ...configuredRules(cwd, env), ...permissionRules.allow],
      denyRules: permissionRules.deny,
      agentPermissions: agentPermissions(config),
      hooks: hooks.hooks,
      hooksNotice: [hooks.notice, ...hooks.problems].filter(Boolean).join('\n') || undefined,
      tree: renderAgentTree(agentTree(config, rootName)),
      roots: config.roots.map((name) => ({ name, description: config.agents.get(name)?.description ?? '' })),
      modelConfigs: [...config.models.values()],
      mcp: registry.pool,
      shell: registry.builtins.shell,
      background: () => registry.jobs.background(),
      stopJobs: () => registry.jobs.close(),
      close: () => registry.close(),
    };
  } catch (e) {
    await registry.close();
    throw e instanceof CliError ? e : new CliError((e as Error).message, ExitCode.usage);
  }
}

/**
 * MCP servers the person brings (the editor's, in `adk acp`; their own, from `adk mcp add --scope
 * user`) join the config, their tools given to the root agent. They are the person's, not the
 * folder's: folder trust does not gate them, and their credentials are redacted everywhere.
 */
/**
 * The person's own servers (the editor's, their `--scope user` ones) join the root agent. They start
 * in adk's own launch folder with no workspace folder on PATH (personal-launch), so nothing the
 * workspace holds (.npmrc, node_modules/.bin, a package named like the server) changes what they run.
 */
function addPersonalMcpServers(config: TeamConfig, rootName: string, servers: Array<{ name: string } & McpServerEntry>, workspace: string, env: NodeJS.ProcessEnv, from: 'editor' | 'user'): void {
  if (!servers.length) return;
  for (const s of servers) if (!s.url) checkPersonalCommand(s.command, s.name, from);
  const root = config.agents.get(rootName)!;
  if (root.type !== 'chat' && root.type !== 'deep') {
    if (from === 'editor') throw new CliError(`the editor's MCP servers need a chat or deep agent at the root; '${rootName}' is a ${root.type} agent`);
    return;
  }
  const pos = { line: 0, col: 0 };
  for (const s of servers) {
    // A name agents.yaml already uses stays the file's; the person's server gets its own.
    const name = config.mcpServers.has(s.name) ? `${from}_${s.name}` : s.name;
    for (const [k, v] of Object.entries({ ...s.env, ...s.headers })) if (SECRET_HEADER.test(k)) addConfigSecret(v);
    const launch = personalLaunch(s, workspace, env);
    // The editor cannot vouch that a server only reads: only the person's own file says read-only.
    const naming = { ...(s.prefix === false ? { prefix: false } : {}), ...(s.tools ? { tools: s.tools } : {}), ...(from === 'user' && s.readOnly ? { readOnly: true } : {}) };
    // The person's own: started on the host, in the launch folder (the sandbox is for the folder's code).
    config.mcpServers.set(name, { name, ...naming, sandbox: 'off', command: s.command ?? '', args: s.args ?? [], ...launch, ...(s.url ? { url: s.url, transport: s.transport, headers: s.headers } : {}), pos });
    root.tools.push({ kind: 'mcp', server: name, pos });
  }
}

const SECRET_HEADER = /auth|token|key|secret|cookie|session|credential|passw/i;

/**
 * The agents' own `permission_mode`/`allow`/`deny`, by the name their calls carry. A deep agent's
 * general-purpose sub-agent (same tools) carries its rules too. Names that would hand rules to
 * another agent as well were refused when the file was checked (config/permission-refs.ts).
 */
function agentPermissions(config: TeamConfig): Map<string, AgentPermissionRules> {
  const out = new Map<string, AgentPermissionRules>();
  for (const [name, a] of config.agents) {
    if ((a.type !== 'chat' && a.type !== 'deep') || !a.permissions) continue;
    out.set(name, a.permissions);
    if (a.type === 'deep' && a.generalPurpose) out.set('general-purpose', a.permissions);
  }
  return out;
}

function realWorkspace(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (e) {
    throw new CliError(`the workspace ${dir} is not available: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ExitCode.usage);
  }
}

/** The folder's allow-list from `adk config` (rules that no longer parse are left out). */
function configuredRules(workspace: string, env: NodeJS.ProcessEnv): AllowRule[] {
  return projectAllowRules(workspace, env)
    .map(parseAllowRule)
    .filter((r): r is AllowRule => typeof r !== 'string')
    .map((r) => ({ ...r, source: 'adk config' }));
}

/** The settings files' rules of one kind (a folder file's allow rules only while it is as trusted). */
/** The settings files' permission rules, read once (allow and deny together). */
function settingsRules(workspace: string, env: NodeJS.ProcessEnv): { allow: AllowRule[]; deny: AllowRule[] } {
  const settings = readPermissionSettings(workspace, env);
  // A deny rule adk cannot read would leave in place the power it was written to take away.
  if (settings.unreadableDeny.length) {
    throw new CliError(`${settings.unreadableDeny.join('\n')}\nadk cannot honour ${settings.unreadableDeny.length === 1 ? 'this deny rule' : 'these deny rules'}, so it does not start: fix or remove ${settings.unreadableDeny.length === 1 ? 'it' : 'them'} (rules: tool, or tool(pattern) such as shell(rm*) or Bash(rm:*))`, ExitCode.usage);
  }
  const of = (kind: 'allow' | 'deny') => settings.rules.filter((r) => r.kind === kind).map((r) => r.rule);
  return { allow: of('allow'), deny: of('deny') };
}

/**
 * The bundled file changes when adk is upgraded; a session on it still resumes then. Only when the
 * bundled file lies inside the session's workspace (adk's own checkout) could a model have written it.
 */
function upgradedBundle(source: string, workspace: string): boolean {
  if (source !== 'bundled') return false;
  const rel = relative(workspace, BUNDLED_AGENTS_FILE);
  return rel.startsWith('..') || isAbsolute(rel);
}

/** Whether some agent's shell runs in the sandbox unless it cannot (not `sandbox: off`, here or in its options). */
function wantsSandbox(config: TeamConfig, env: NodeJS.ProcessEnv): boolean {
  if (shellSandboxFromEnv(env) === 'off') return false;
  for (const a of config.agents.values()) {
    const refs = a.type === 'chat' || a.type === 'deep' ? a.tools : a.type === 'plan_execute' ? a.executor.tools : [];
    if (refs.some((r) => r.kind === 'builtin' && r.name === 'shell' && r.options?.sandbox !== 'off')) return true;
  }
  return false;
}

/** Why shell commands would run unsandboxed here; undefined when the sandbox works. */
async function unsandboxedReason(workspace: string): Promise<string | undefined> {
  const { sandboxStatus } = await import('../core/tools/sandbox/bwrap.js');
  // The workspace the shell runs in: a bwrap found inside it is never taken (see sandboxStatus).
  const status = await sandboxStatus(process.env, workspace);
  return status.bwrap ? undefined : (status.reason ?? 'bwrap cannot run here');
}

function unsandboxedNotice(reason: string): string {
  return `shell commands run WITHOUT a sandbox here: ${reason}. "Always allow" and allow rules do not cover shell then: it asks before every command (unless agents.yaml turns its approval off); read each one. (ADK_SHELL_SANDBOX=off says this is intended.)`;
}

