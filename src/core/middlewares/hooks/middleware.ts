import { fromClaudeFields, withClaudeFields } from '../../tools/claude-tool-names.js';
import type { AgentMiddleware, MiddlewareContext } from '../../agents/middleware.js';
import type { Message } from '../../schema/message.js';
import type { ToolCallRequest, ToolCallResult } from '../../agents/handlers.js';
import { hasHooks, type HookEvent, type HooksConfig } from './config.js';
import { matchValueOf, type HookEventFields } from './payloads.js';
import { runHooks, type HookGuard, type HookOutcome, type HookSandbox } from './runner.js';

/** What `hooksMiddleware` runs, and where. */
export interface HooksOptions {
  hooks: HooksConfig;
  /** The workspace: hooks run in it and get it as `cwd`. */
  cwd: string;
  /** Where hooks' allow-listed variables come from (default process.env); keys and tokens never pass. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Further variables hooks may see (ADK_SHELL_ENV). */
  extraEnv?: readonly string[] | undefined;
  /** The session's id, as hooks get it (`session_id`). */
  sessionId?: (() => string | undefined) | undefined;
  /** The session's transcript (JSONL), when one is kept. */
  transcriptPath?: (() => string | undefined) | undefined;
  /** The run's permission mode (`default`, `plan`, `acceptEdits`, …). */
  permissionMode?: (() => string | undefined) | undefined;
  /** Asked before each hook command runs; a reason keeps it from running (see HookGuard). */
  guard?: HookGuard | undefined;
  /** The sandbox hooks run in (see HookSandbox); without it, on the host. */
  sandbox?: HookSandbox | undefined;
  /** What hooks tell the person (failures, `systemMessage`); default: nothing. */
  onNotice?: ((text: string) => void) | undefined;
  /**
   * Times in a row Stop (or SubagentStop) hooks may send one agent run on before adk lets it stop
   * anyway (default 8, Claude Code's cap): a hook that always blocks cannot loop forever.
   */
  maxStopContinuations?: number | undefined;
}

/** Claude Code ends a turn after this many Stop hook blocks in a row. */
export const DEFAULT_MAX_STOP_CONTINUATIONS = 8;

/** A UserPromptSubmit hook refused the prompt: the turn does not run, the person sees why. */
export class HookBlockedError extends Error {
  constructor(readonly event: HookEvent, readonly reason: string) {
    super(`${event} hook blocked this: ${reason}`);
    this.name = 'HookBlockedError';
  }
}

/**
 * A team's hooks (Claude Code's events on adk's run): the tool and agent events are its
 * middleware's (`middleware()`), the session events (SessionStart, PreCompact) are called by the
 * host, which knows when a session starts or compacts by hand.
 */
export class Hooks {
  /** SessionStart's context, for the first prompt that follows. */
  private pending: string[] = [];
  /** The session hooks are told of, when `sessionId`/`transcriptPath` are not given (a host sets it as sessions change). */
  readonly session: { id?: string | undefined; transcriptPath?: string | undefined } = {};
  /** Where notices go when `onNotice` was not given (a host may set it later). */
  onNotice?: ((text: string) => void) | undefined;
  /** The last notices (failures, timeouts, `systemMessage`s), newest last: `/hooks` shows them. */
  readonly recentNotices: string[] = [];

  constructor(readonly options: HooksOptions) {}

  get config(): HooksConfig {
    return this.options.hooks;
  }

  get active(): boolean {
    return hasHooks(this.options.hooks);
  }

  /** Runs `event`'s matching hooks with its stdin payload; notices go to the person. */
  async run<E extends HookEvent>(event: E, fields: HookEventFields[E], signal?: AbortSignal): Promise<HookOutcome> {
    const o = this.options;
    if (!o.hooks[event]?.length) return { context: [], notices: [] };
    const input = {
      session_id: o.sessionId?.() ?? this.session.id ?? '',
      transcript_path: o.transcriptPath?.() ?? this.session.transcriptPath ?? '',
      cwd: o.cwd,
      permission_mode: o.permissionMode?.() ?? 'default',
      hook_event_name: event,
      ...fields,
    };
    const outcome = await runHooks(o.hooks, event, matchValueOf(event, fields), input, { cwd: o.cwd, env: o.env, extraEnv: o.extraEnv, signal, guard: o.guard, sandbox: o.sandbox });
    for (const n of outcome.notices) this.tell(n);
    return outcome;
  }

  /** A notice for the person (and `/hooks`). */
  tell(text: string): void {
    this.recentNotices.push(text);
    if (this.recentNotices.length > 10) this.recentNotices.shift();
    (this.options.onNotice ?? this.onNotice)?.(text);
  }

  /** SessionStart: its context reaches the model with the next prompt. */
  async sessionStart(source: HookEventFields['SessionStart']['source'], sessionId?: string): Promise<void> {
    if (sessionId) this.session.id = sessionId;
    const r = await this.run('SessionStart', { source });
    this.pending.push(...r.context);
  }

  /**
   * PreCompact, before a compaction the person asked for (`/compact`, `manual`) or one adk starts
   * (`auto`: between turns, by Conversation, or in a run, by the summarize middleware).
   */
  async preCompact(trigger: 'manual' | 'auto', customInstructions = '', signal?: AbortSignal): Promise<void> {
    await this.run('PreCompact', { trigger, custom_instructions: customInstructions }, signal);
  }

  /** Notification: adk waits for the person (an approval, a question). Never awaited by the run. */
  notify(message: string, type = 'permission_prompt'): void {
    void this.run('Notification', { message, notification_type: type }).catch(() => {});
  }

  /**
   * The middleware of one agent. `root` fires UserPromptSubmit, Stop and Notification; a
   * sub-agent fires SubagentStop instead. Both fire PreToolUse and PostToolUse.
   */
  middleware(role: 'root' | 'subagent' = 'root'): AgentMiddleware {
    return hooksAgentMiddleware(this, role, () => this.pending.splice(0));
  }
}

/** Hooks as one agent's middleware; see Hooks.middleware. */
export function hooksMiddleware(options: HooksOptions & { role?: 'root' | 'subagent' | undefined }): AgentMiddleware {
  return new Hooks(options).middleware(options.role);
}

const PROMPT_DONE = 'hooks.promptSubmitted';
const PRE_TOOL = 'hooks.preToolUse:';
/** Times Stop hooks sent this agent run on (kept in the checkpoint: an approval does not reset it). */
const STOP_CONTINUED = 'hooks.stopContinued';
/** beforeStop fired Stop since the last model call: afterAgent does not fire it again for the run's end. */
const STOP_FIRED = 'hooks.stopFired';

function hooksAgentMiddleware(hooks: Hooks, role: 'root' | 'subagent', takePending: () => string[]): AgentMiddleware {
  return {
    name: 'hooks',
    // PreToolUse decides before a person is asked (a denied call is never shown for approval).
    beforeApproval: true,
    wrapToolCall: (next, ctx) => async (req) => {
      const pre = await preToolUse(hooks, ctx, req);
      if ('blocked' in pre) return pre.blocked;
      const r = await next(pre.req);
      if (r.kind !== 'done' || !hooks.config.PostToolUse?.length) return r;
      const post = await hooks.run(
        'PostToolUse',
        { tool_name: req.call.function.name, tool_input: withClaudeFields(req.call.function.name, argumentsOf(pre.req)), tool_use_id: req.call.id, tool_response: { content: r.content, is_error: r.isError }, agent_name: ctx.agentName },
        ctx.signal,
      );
      const notes = [...(post.block ? [`PostToolUse hook: ${post.block}`] : []), ...post.context];
      return notes.length ? { ...r, content: `${r.content}\n\n${notes.join('\n')}` } : r;
    },
    beforeModel: async (ctx, state) => {
      // The run goes on (a Stop hook sent it on): its end is still to come.
      delete ctx.values[STOP_FIRED];
      if (role !== 'root' || ctx.values[PROMPT_DONE] || ctx.run.resume) return;
      ctx.values[PROMPT_DONE] = true;
      const at = lastUserIndex(state.messages);
      const context = takePending();
      if (at >= 0 && hooks.config.UserPromptSubmit?.length) {
        const r = await hooks.run('UserPromptSubmit', { prompt: state.messages[at].content }, ctx.signal);
        if (r.block) throw new HookBlockedError('UserPromptSubmit', r.block);
        if (r.stop) throw new HookBlockedError('UserPromptSubmit', r.stop);
        context.push(...r.context);
      }
      if (context.length && at >= 0) state.messages.splice(at + 1, 0, { role: 'user', content: `<hook-context>\n${context.join('\n')}\n</hook-context>` });
    },
    // Claude Code's Stop: a hook that blocks (exit 2, `decision: "block"`) sends the agent on with
    // its reason; the next Stop says `stop_hook_active: true`; adk stops anyway after the cap.
    beforeStop: async (ctx) => {
      const event = role === 'root' ? 'Stop' : 'SubagentStop';
      ctx.values[STOP_FIRED] = true;
      if (!hooks.config[event]?.length) return;
      const continued = (ctx.values[STOP_CONTINUED] as number | undefined) ?? 0;
      const r = await hooks.run(event, { stop_hook_active: continued > 0, agent_name: ctx.agentName }, ctx.signal);
      // `continue: false` wins over a block: the agent stops.
      if (!r.block || r.stop) return;
      const cap = hooks.options.maxStopContinuations ?? DEFAULT_MAX_STOP_CONTINUATIONS;
      if (continued >= cap) {
        hooks.tell(`${event} hooks blocked ${continued} times in a row: the agent stopped anyway (the cap is ${cap})`);
        return;
      }
      ctx.values[STOP_CONTINUED] = continued + 1;
      return { continueWith: `${event} hook feedback:\n${r.block}` };
    },
    beforeCompact: (ctx, info) => hooks.preCompact(info.trigger, info.instructions ?? '', ctx.signal),
    afterAgent: async (ctx, _state, end) => {
      if (end.error) return;
      if (end.interrupted) {
        if (role === 'root') hooks.notify('adk is waiting for your answer');
        return;
      }
      // Other ends (a transfer, a tool that returns directly) only tell the hooks; they cannot continue.
      if (ctx.values[STOP_FIRED]) return;
      const event = role === 'root' ? 'Stop' : 'SubagentStop';
      const active = ((ctx.values[STOP_CONTINUED] as number | undefined) ?? 0) > 0;
      if (hooks.config[event]?.length) await hooks.run(event, { stop_hook_active: active, agent_name: ctx.agentName }, ctx.signal);
    },
  };
}

/**
 * PreToolUse: a block (exit 2, `decision: block`, `permissionDecision: deny`, `continue: false`)
 * is the call's result, so the model reads the reason; `updatedInput` becomes the call's
 * arguments (the approval shows them); `permissionDecision: allow | ask` travels with the call to
 * the approval middleware (`req.permission`), which skips or forces the prompt. Once decided for a
 * call, it is kept in the run's values: the resume after an approval does not run the hook again.
 */
async function preToolUse(hooks: Hooks, ctx: MiddlewareContext, req: ToolCallRequest): Promise<{ req: ToolCallRequest } | { blocked: ToolCallResult }> {
  if (!hooks.config.PreToolUse?.length) return { req };
  const key = PRE_TOOL + req.call.id;
  let decided = ctx.values[key] as { updatedInput?: Record<string, unknown>; permission?: 'allow' | 'ask' } | undefined;
  if (!decided || !req.resume.wasInterrupted) {
    const name = req.call.function.name;
    const r = await hooks.run('PreToolUse', { tool_name: name, tool_input: withClaudeFields(name, argumentsOf(req)), tool_use_id: req.call.id, agent_name: ctx.agentName }, ctx.signal);
    const reason = r.block ?? r.stop;
    if (reason) {
      const context = r.context.length ? `\n${r.context.join('\n')}` : '';
      return { blocked: { kind: 'done', isError: true, content: `The ${name} call was blocked by a PreToolUse hook: ${reason}${context}` } };
    }
    decided = {
      ...(r.updatedInput ? { updatedInput: r.updatedInput } : {}),
      ...(r.permission === 'allow' || r.permission === 'ask' ? { permission: r.permission } : {}),
    };
    ctx.values[key] = decided;
  }
  const decidedReq = decided.permission ? { ...req, permission: decided.permission } : req;
  if (!decided.updatedInput) return { req: decidedReq };
  // Scripts written for Claude Code answer in its field names (`file_path`): the tool gets adk's.
  const updated = { ...(asRecord(argumentsOf(req)) ?? {}), ...fromClaudeFields(req.call.function.name, decided.updatedInput) };
  return { req: { ...decidedReq, arguments: updated, call: { ...req.call, function: { ...req.call.function, arguments: JSON.stringify(updated) } } } };
}

function argumentsOf(req: ToolCallRequest): unknown {
  if (req.arguments !== undefined) return req.arguments;
  try {
    return JSON.parse(req.call.function.arguments || '{}');
  } catch {
    return req.call.function.arguments;
  }
}

function asRecord(x: unknown): Record<string, unknown> | undefined {
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

function lastUserIndex(messages: Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}
