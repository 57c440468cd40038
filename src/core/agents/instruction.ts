import { TRANSFER_TOOL_NAME } from '../tools/control-tools.js';
import type { Agent } from './types.js';

export { TRANSFER_TOOL_NAME } from '../tools/control-tools.js';

/** Eino's transfer instruction, verbatim. */
export function transferInstruction(targets: readonly Pick<Agent, 'name' | 'description'>[]): string {
  const list = targets.map((a) => `\n- Agent name: ${a.name}\n  Agent description: ${a.description}`).join('');
  return `Available other agents: ${list}

Decision rule:
- If you're best suited for the question according to your description: ANSWER
- If another agent is better according its description: CALL '${TRANSFER_TOOL_NAME}' function with their agent name

When transferring: OUTPUT ONLY THE FUNCTION CALL`;
}

/** Eino joins instruction parts with a blank line, even when the first part is empty. */
export const concatInstructions = (...parts: string[]): string => parts.join('\n\n');

/**
 * Fills `{Key}` from session values. Unlike Eino's f-string formatting, braces that name no
 * session value (JSON, LaTeX, code) are left as they are instead of failing the run.
 */
export function fillPlaceholders(template: string, values: Record<string, unknown>): string {
  if (!template.includes('{')) return template;
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, key: string) => {
    if (!Object.prototype.hasOwnProperty.call(values, key)) return whole;
    const v = values[key];
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}
