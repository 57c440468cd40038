import type { Agent, ChatModel } from '../core/index.js';
import { ChatModelAgent } from '../core/index.js';
import { createDemoModel, DEMO_MODEL_NAME } from '../core/models/demo.js';

export interface TeamOptions {
  model?: string;
  agentsFile?: string;
  agentName?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface Team {
  agent: Agent;
  modelName: string;
  isDemo: boolean;
  /** The agents file the team came from, stored with the session so resume rebuilds the same team. */
  agentsFile?: string;
  close(): Promise<void>;
}

/** The model named by --model / ADK_MODEL, or the offline demo when nothing points at a real endpoint. */
export async function resolveModel(opts: TeamOptions): Promise<{ model: ChatModel; isDemo: boolean }> {
  const env = opts.env ?? process.env;
  const name = opts.model ?? env.ADK_MODEL;
  const configured = !!(env.OPENAI_API_KEY || env.OPENAI_BASE_URL);
  if (name === DEMO_MODEL_NAME || (!configured && !opts.model)) return { model: createDemoModel(), isDemo: true };
  const { modelFromEnv } = await import('../core/models/from-env.js');
  return { model: modelFromEnv(env, { model: name }), isDemo: false };
}

/** The default agent of `adk run` when no agents file is used. */
export async function loadTeam(opts: TeamOptions): Promise<Team> {
  const { model, isDemo } = await resolveModel(opts);
  const { builtinTools } = await import('../core/tools/builtin/index.js');
  const t = builtinTools({ workspaceRoot: opts.cwd ?? process.cwd() });
  const agent = new ChatModelAgent({
    name: 'assistant',
    description: 'A general helper that can read files in the current folder.',
    instruction: 'You are a helpful assistant working in the user’s current folder. Use the tools to look at files when needed. Be concise.',
    model,
    tools: [t.read_file, t.list_dir, t.current_time],
  });
  return { agent, modelName: model.modelName, isDemo, close: async () => {} };
}
