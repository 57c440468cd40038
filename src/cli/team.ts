import { fileURLToPath } from 'node:url';
import type { Agent } from '../core/index.js';
import { CliError, ExitCode } from './exit-codes.js';
import { addConfigSecret } from './secrets.js';

export interface TeamOptions {
  model?: string;
  agentsFile?: string;
  agentName?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Team {
  agent: Agent;
  /** The agents.yaml name the team was built from; saved with the session (a supervisor's agent is named after its supervisor). */
  rootName: string;
  modelName: string;
  isDemo: boolean;
  /** The agents file the team came from, stored with the session so resume rebuilds the same team. */
  agentsFile?: string;
  /** The agent tree's tool names, for `/tools`. */
  toolNames: string[];
  /** The team as `adk agents` prints it, for `/agents`. */
  tree: string;
  close(): Promise<void>;
}

export const BUNDLED_AGENTS_FILE = fileURLToPath(new URL('../../agents.yaml', import.meta.url));
export const DEMO_TEAM = 'demo';

/** True when nothing points at a real model endpoint: no key, no base URL, no --model. */
export function wantsDemo(opts: TeamOptions): boolean {
  const env = opts.env ?? process.env;
  return !opts.model && !env.OPENAI_API_KEY && !env.OPENAI_BASE_URL && (!env.ADK_MODEL || env.ADK_MODEL === 'demo');
}

/**
 * The `--model` to rebuild a saved session's team with: its stored model name when the team ran on
 * one model; a team of several models (stored as "a, b") is rebuilt from its agents file.
 */
export function sessionModel(stored: string | undefined): string | undefined {
  return stored && !stored.includes(', ') ? stored : undefined;
}

/**
 * Builds the team from agents.yaml (`--agents`, else ./agents.yaml, else the bundled file).
 * Without any model configuration the bundled file starts on its offline `demo` team.
 */
export async function loadTeam(opts: TeamOptions): Promise<Team> {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const { findAgentsFile, validateConfig, formatProblems, createTeam, agentTree, renderAgentTree } = await import('../core/config/index.js');
  const location = findAgentsFile(cwd, opts.agentsFile, BUNDLED_AGENTS_FILE);
  const result = validateConfig({ file: location.path }, { env });
  if (!result.ok || !result.config) throw new CliError(formatProblems(result.problems), ExitCode.usage);
  const config = result.config;

  const demoFallback = !opts.agentName && location.source === 'bundled' && wantsDemo(opts) && config.agents.has(DEMO_TEAM);
  const rootName = opts.agentName ?? (demoFallback ? DEMO_TEAM : config.default);
  if (!config.agents.has(rootName)) {
    throw new CliError(`agent '${rootName}' is not defined in ${location.path}; defined: ${[...config.agents.keys()].join(', ')}`);
  }

  const { ToolRegistry } = await import('../core/tools/registry.js');
  const { modelFromConfig } = await import('../core/models/from-config.js');
  const { retryPolicyFromEnv } = await import('../core/models/retry.js');
  const registry = new ToolRegistry({
    workspaceRoot: cwd,
    baseDir: config.dir,
    mcpServers: Object.fromEntries([...config.mcpServers].map(([name, s]) => [name, s])),
  });
  const modelNames = new Set<string>();
  const toolNames = new Set<string>();
  try {
    const agent = await createTeam(
      config,
      {
        model: (mc) => {
          addConfigSecret(mc.apiKeyEnv ? env[mc.apiKeyEnv] : undefined);
          const m = modelFromConfig(mc, env, opts.model);
          modelNames.add(m.modelName);
          return m;
        },
        tools: async (refs) => {
          const tools = await registry.resolve(refs);
          for (const t of tools) toolNames.add(t.name);
          return tools;
        },
        retry: retryPolicyFromEnv(env),
      },
      rootName,
    );
    const names = [...modelNames];
    return {
      agent,
      rootName,
      modelName: names.join(', ') || 'none',
      isDemo: names.length > 0 && names.every((n) => n === 'demo'),
      agentsFile: location.source === 'bundled' ? undefined : location.path,
      toolNames: [...toolNames].sort(),
      tree: renderAgentTree(agentTree(config, rootName)),
      close: () => registry.close(),
    };
  } catch (e) {
    await registry.close();
    throw e instanceof CliError ? e : new CliError((e as Error).message, ExitCode.usage);
  }
}
