import type { ToolCall } from '../schema/message.js';
import { parseToolArguments, type ToolCallResult } from '../tools/execute.js';
import { validateArguments } from '../tools/parameters.js';
import type { Tool } from '../tools/tool.js';

/**
 * A call whose arguments are not JSON or do not fit the tool's schema, answered to the model with
 * the same error the tool would give. The approval gate asks this first: a person must not be
 * asked to approve a call that cannot run (approved, it would only fail).
 */
export function invalidCallResult(tool: Tool | undefined, call: ToolCall): ToolCallResult | undefined {
  if (!tool) return undefined; // the executor names the unknown tool
  const name = call.function.name;
  const parsed = parseToolArguments(call.function.arguments);
  if (!parsed.ok) return { kind: 'done', isError: true, content: `Error: the arguments of '${name}' are not valid JSON (${parsed.error}). Send a JSON object.` };
  const valid = validateArguments(tool, parsed.value);
  if (!valid.ok) return { kind: 'done', isError: true, content: `Error: invalid arguments for '${name}': ${valid.error}`, arguments: parsed.value };
  return undefined;
}
