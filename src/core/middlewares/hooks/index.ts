export { HOOK_EVENTS, parseHooks, mergeHooks, hasHooks, listHooks, type HookEvent, type HookCommand, type HookGroup, type HooksConfig, type HooksProblem } from './config.js';
export { matches as hookMatches } from './matcher.js';
export { runHookCommand, runHooks, interpretHookRun, refusedHook, DEFAULT_HOOK_TIMEOUT_S, type HookGuard, type HookRun, type HookRunOptions, type HookOutcome } from './runner.js';
export type { HookCommon, HookEventFields } from './payloads.js';
export { Hooks, hooksMiddleware, HookBlockedError, DEFAULT_MAX_STOP_CONTINUATIONS, type HooksOptions } from './middleware.js';
