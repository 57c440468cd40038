/** agents.yaml: loading, validation with file:line:col problems, lookup and the agent tree. */
export { loadConfigFile, parseConfig, validateConfig, type ValidateInput } from './load.js';
export { formatProblem, formatProblems, ConfigValidationError } from './problems.js';
export { findAgentsFile, type AgentsFileLocation } from './find-agents-file.js';
export { agentTree, agentForest, renderAgentTree, toolLabel, type TreeNode } from './agent-tree.js';
export { interpolate } from './interpolate.js';
export { DEFAULT_MODEL } from './references.js';
export { DEFAULT_MAX_ALIAS_EXPANSION } from './yaml-source.js';
export { AGENT_TYPES } from './types.js';
export type {
  AgentConfig,
  AgentType,
  ChatAgentConfig,
  ConfigOptions,
  ConfigProblem,
  ExecutorConfig,
  LoadedConfig,
  McpServerDef,
  ModelConfig,
  PlanExecuteAgentConfig,
  PlannerConfig,
  ReplannerConfig,
  SourcePos,
  SupervisorAgentConfig,
  TeamConfig,
  ToolRef,
  ValidationResult,
  WorkflowAgentConfig,
} from './types.js';
export { createTeam, toRegistryRef, type TeamDeps } from './create-team.js';
export { configPowers, type ConfigPower } from './powers.js';
export { teamFingerprint, hasCode, type TeamFingerprint } from './fingerprint.js';
export { codeManifest, describeCodeChange, manifestDigest, mergeManifest, shellCommandCode, type CodeManifest } from './code-graph.js';
