import type { HookEvent } from './config.js';

/**
 * What a hook reads on stdin: Claude Code's field names, so its hook scripts work unchanged.
 * Every event has the common fields; each adds its own (see docs/hooks.md).
 */
export interface HookCommon {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: HookEvent;
}

export interface HookEventFields {
  PreToolUse: { tool_name: string; tool_input: unknown; tool_use_id: string; agent_name: string };
  PostToolUse: { tool_name: string; tool_input: unknown; tool_use_id: string; tool_response: { content: string; is_error: boolean }; agent_name: string };
  UserPromptSubmit: { prompt: string };
  Stop: { stop_hook_active: boolean; agent_name: string };
  SubagentStop: { stop_hook_active: boolean; agent_name: string };
  SessionStart: { source: 'startup' | 'resume' | 'clear' | 'compact' };
  PreCompact: { trigger: 'manual' | 'auto'; custom_instructions: string };
  Notification: { message: string; notification_type: string };
}

/** The value an event's matchers are tried against (the tool, the source, the trigger); none for the rest. */
export function matchValueOf<E extends HookEvent>(event: E, fields: HookEventFields[E]): string | undefined {
  const f = fields as Record<string, unknown>;
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
      return f.tool_name as string;
    case 'SessionStart':
      return f.source as string;
    case 'PreCompact':
      return f.trigger as string;
    case 'Notification':
      return f.notification_type as string;
    default:
      return undefined;
  }
}
