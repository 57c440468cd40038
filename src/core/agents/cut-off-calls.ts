import { IncompleteReplyError } from '../errors.js';
import { toolMessage, type Message, type ToolCall } from '../schema/message.js';

/**
 * A reply that ended at the token limit (or a filter) while it was still writing tool calls: its
 * calls may hold half their arguments (a `write_file` without its content, or `{}` where nothing
 * came), so none of them runs. Each is answered with an error result, so the history sent next time
 * stays a valid conversation that tells the model what happened, and the turn ends incomplete naming
 * the calls and what to change.
 */
export function cutOffCalls(reply: Message, agentName: string): { results: Message[]; error: IncompleteReplyError } {
  const reason = reply.finishReason ?? 'length';
  const calls = reply.toolCalls ?? [];
  const results = calls.map((c) => ({ ...toolMessage(notRunText(c, reason), c.id, c.function.name), isError: true }));
  const named = calls.map(describe).join(', ');
  const fix =
    reason === 'length'
      ? `raise max_tokens on the model (agent '${agentName}') or ask for smaller steps`
      : `the provider stopped the reply (finish_reason: ${reason})`;
  const error = new IncompleteReplyError(reason, `the reply was cut off (finish_reason: ${reason}) while writing ${calls.length === 1 ? 'the tool call' : 'the tool calls'} ${named}; ${calls.length === 1 ? 'it was' : 'they were'} not run: ${fix}`);
  return { results, error };
}

/** `write_file (call_1, arguments cut off after 812 characters)`. */
function describe(c: ToolCall): string {
  const args = c.function.arguments;
  const state = !args.trim() ? 'no arguments yet' : parses(args) ? 'arguments complete' : `arguments cut off after ${args.length} characters`;
  return `${c.function.name || '(no name)'} (${state})`;
}

function notRunText(c: ToolCall, reason: string): string {
  return `Error: this call to '${c.function.name}' was not run: the reply stopped (finish_reason: ${reason}) before its arguments were complete. Write smaller pieces (e.g. split a long file into several calls).`;
}

function parses(args: string): boolean {
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
  }
}
