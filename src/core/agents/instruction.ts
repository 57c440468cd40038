import { AdkError } from '../errors.js';
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
 * An agent's instruction has a `{key}` placeholder and the run has no session value of that name.
 * Eino fails the run too (its instruction is an f-string template); adk names the key and the agent.
 */
export class MissingSessionValueError extends AdkError {
  constructor(
    /** The keys without a value, in the order the instruction names them. */
    readonly keys: readonly string[],
    /** The agent whose instruction it is, when known. */
    readonly agent?: string,
  ) {
    const placeholders = keys.map((k) => `{${k}}`).join(', ');
    const names = keys.map((k) => `'${k}'`).join(', ');
    super(
      'missing_session_value',
      `the instruction of ${agent ? `agent '${agent}'` : 'an agent'} has ${placeholders} but the run has no session value ${names}: ` +
        `pass it in sessionValues (or have an earlier agent write it with outputKey), write {{${keys[0]}}} for the literal text {${keys[0]}}, ` +
        `or set missingPlaceholders: 'keep' on the agent to leave such placeholders as written`,
    );
  }
}

/** How `fillPlaceholders` treats a `{key}` with no session value. */
export interface PlaceholderOptions {
  /** Whose instruction it is, for the error. */
  agent?: string | undefined;
  /** `'error'` (default): throw MissingSessionValueError. `'keep'`: leave the placeholder as written. */
  missing?: 'error' | 'keep' | undefined;
}

/**
 * Fills `{key}` placeholders (a name: letters, digits, `_`) from session values; a value that is not
 * a string is written as JSON. `{{key}}` is the literal text `{key}`. Braces around anything else
 * (JSON, LaTeX, code) stay as they are, unlike Eino's f-string formatting. A `{key}` with no session
 * value fails (MissingSessionValueError, naming the key and the agent), as in Eino, unless
 * `missing: 'keep'` leaves it as written.
 */
export function fillPlaceholders(template: string, values: Record<string, unknown>, options: PlaceholderOptions = {}): string {
  if (!template.includes('{')) return template;
  const missing: string[] = [];
  const filled = template.replace(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, escaped: string | undefined, key: string) => {
    if (escaped !== undefined) return `{${escaped}}`;
    const v = Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
    if (v === undefined) {
      if (!missing.includes(key)) missing.push(key);
      return whole;
    }
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
  if (missing.length && options.missing !== 'keep') throw new MissingSessionValueError(missing, options.agent);
  return filled;
}
