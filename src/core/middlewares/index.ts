export { approvalMiddleware } from './approval.js';
export { outputCapMiddleware, DEFAULT_MAX_TOOL_OUTPUT_CHARS } from './output-cap.js';
export {
  summarizeMiddleware,
  isSummarizeMiddleware,
  type SummarizeMiddleware,
  isCompactionEvent,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_KEEP_TURNS,
  type SummarizeOptions,
  type CompactionEvent,
} from './summarize.js';
export { reduceToolResultsMiddleware, READ_TOOL_RESULT, type ReduceToolResultsOptions, type ArtifactStore } from './reduce-tool-results.js';
export { agentsMdMiddleware, readAgentsMd, AGENTS_MD, PROJECT_MEMORY_FILES } from './agents-md.js';
export { skillsMiddleware, findSkills, parseSkillFile, SKILL_TOOL, type Skill } from './skills.js';
export { Hooks, hooksMiddleware, HookBlockedError, parseHooks, mergeHooks, listHooks, runHooks, type HooksConfig, type HookEvent, type HooksOptions } from './hooks/index.js';
