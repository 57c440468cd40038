import { ChatModelAgent } from '../../agents/chat-model-agent.js';
import type { AgentMiddleware } from '../../agents/middleware.js';
import type { Agent } from '../../agents/types.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { RetryPolicy } from '../../models/retry.js';
import { summarizeMiddleware } from '../../middlewares/summarize.js';
import type { Tool } from '../../tools/tool.js';
import { concatInstructions } from '../../agents/instruction.js';
import { DEEP_INSTRUCTION, GENERAL_PURPOSE_DESCRIPTION, GENERAL_PURPOSE_INSTRUCTION, GENERAL_PURPOSE_NAME } from './prompts.js';
import { taskTool } from './task-tool.js';
import { ConfigError } from '../../errors.js';
import { checkOptions, checkTools, checkTypes, hasDescription, requireAgentList, requireChatModel, requireName, who } from '../../agents/options-check.js';
import { writeTodosTool } from './todos.js';

/** Settings of deepAgent (the code counterpart of `type: deep` in agents.yaml). */
export interface DeepAgentConfig {
  name: string;
  description: string;
  model: ChatModel;
  /** Added to the default deep-agent instruction. */
  instruction?: string | undefined;
  /** The working tools (files, shell, …): the agent's own and the general-purpose sub-agent's. */
  tools?: Tool[] | undefined;
  /** Tools that ask a person first, here and inside the general-purpose sub-agent. */
  approval?: string[] | undefined;
  /** Sub-agents the `task` tool can run (each in a fresh context). */
  subAgents?: Agent[] | undefined;
  /** Add a general-purpose sub-agent with the same tools (default true). */
  generalPurpose?: boolean | undefined;
  /** Default 50: deep work takes more steps than a chat. */
  maxIterations?: number | undefined;
  middlewares?: AgentMiddleware[] | undefined;
  /** Middlewares of the general-purpose sub-agent besides summarisation (AGENTS.md, skills). */
  subAgentMiddlewares?: AgentMiddleware[] | undefined;
  outputKey?: string | undefined;
  retry?: Partial<RetryPolicy> | undefined;
}

/** Every option of DeepAgentConfig (the compiler keeps the two in step). */
const DEEP_AGENT_OPTIONS = {
  name: true, description: true, model: true, instruction: true, tools: true, approval: true, subAgents: true, generalPurpose: true,
  maxIterations: true, middlewares: true, subAgentMiddlewares: true, outputKey: true, retry: true,
} satisfies Record<keyof DeepAgentConfig, true>;

/** Eino's deep.Config names that adk spells otherwise. */
const DEEP_AGENT_ALIASES = {
  ChatModel: 'model', MaxIteration: 'maxIterations', ToolsConfig: 'tools', Handlers: 'middlewares', ModelRetryConfig: 'retry',
  WithoutGeneralSubAgent: 'generalPurpose: false', WithoutWriteTodos: 'middlewares (write_todos is always there)',
};

function checkDeepAgentConfig(config: unknown): void {
  const o = checkOptions(who('deepAgent', config), config, { known: Object.keys(DEEP_AGENT_OPTIONS), aliases: DEEP_AGENT_ALIASES });
  requireName('deepAgent', 'name', o.name);
  const label = who('deepAgent', o);
  requireChatModel(label, 'model', o.model);
  checkTools(label, 'tools', o.tools);
  const subs = requireAgentList(label, 'subAgents', o.subAgents, false);
  // The task tool lists each sub-agent as "- name: description": the model picks by it.
  const missing = subs.find((a) => !hasDescription(a));
  if (missing) throw new ConfigError(`${label}: sub-agent '${missing.name}' has no description: the task tool lists it so the model can pick '${missing.name}'`);
  checkTypes(label, o, {
    description: 'string', instruction: 'string', approval: 'strings', generalPurpose: 'boolean', maxIterations: 'number', middlewares: 'list',
    subAgentMiddlewares: 'list', outputKey: 'string', retry: 'object',
  });
}

/** Model calls a deep agent may make in one run when `maxIterations` is not given. */
export const DEFAULT_DEEP_MAX_ITERATIONS = 50;

/**
 * Eino's DeepAgent (adk/prebuilt/deep): a ChatModelAgent with `write_todos`, a `task` tool over its
 * sub-agents (and a general-purpose one), its working tools and a default instruction.
 */
export function deepAgent(config: DeepAgentConfig): ChatModelAgent {
  checkDeepAgentConfig(config);
  const tools = config.tools ?? [];
  const maxIterations = config.maxIterations ?? DEFAULT_DEEP_MAX_ITERATIONS;
  const subAgents = [...(config.subAgents ?? [])];
  const names = new Set<string>();
  for (const a of subAgents) {
    if (names.has(a.name)) throw new Error(`deep agent '${config.name}': two sub-agents are named '${a.name}'`);
    names.add(a.name);
  }
  if (config.generalPurpose !== false && names.has(GENERAL_PURPOSE_NAME)) {
    throw new Error(`deep agent '${config.name}': a sub-agent is named '${GENERAL_PURPOSE_NAME}', the name of the built-in one; rename it or set generalPurpose: false`);
  }
  if (config.generalPurpose !== false) {
    subAgents.push(
      new ChatModelAgent({
        name: GENERAL_PURPOSE_NAME,
        description: GENERAL_PURPOSE_DESCRIPTION,
        instruction: GENERAL_PURPOSE_INSTRUCTION,
        model: config.model,
        tools,
        approval: config.approval,
        maxIterations,
        retry: config.retry,
        middlewares: [...(config.subAgentMiddlewares ?? []), summarizeMiddleware()],
      }),
    );
  }
  const own: Tool[] = [...tools, writeTodosTool];
  if (subAgents.length) own.push(taskTool(subAgents));
  return new ChatModelAgent({
    name: config.name,
    description: config.description,
    instruction: config.instruction ? concatInstructions(DEEP_INSTRUCTION, config.instruction) : DEEP_INSTRUCTION,
    model: config.model,
    tools: own,
    approval: config.approval,
    maxIterations,
    middlewares: config.middlewares,
    outputKey: config.outputKey,
    retry: config.retry,
  });
}
