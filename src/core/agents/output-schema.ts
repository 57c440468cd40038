import type { ZodType } from 'zod';
import type { ResponseFormat } from '../models/chat-model.js';
import { dropNullsForAbsent } from '../models/openai-strict.js';
import { parametersJsonSchema, validateArguments } from '../tools/parameters.js';
import type { JsonSchema } from '../tools/tool.js';

/**
 * What a final answer must be: a zod schema (its output type is `T`, and `RunResult.structured`'s),
 * or a JSON Schema object (`T` is then unknown unless given: `new ChatModelAgent<Forecast>({…})`).
 */
export type OutputSchema<T = unknown> = ZodType<T> | JsonSchema;

/** How many times a model is asked again after an answer that does not match. */
export const DEFAULT_OUTPUT_RETRIES = 2;

export type StructuredCheck = { ok: true; value: unknown } | { ok: false; error: string };

/** An agent's output schema, ready to send (response_format) and to check answers against. */
export class StructuredOutput {
  readonly jsonSchema: JsonSchema;

  constructor(
    private readonly schema: OutputSchema,
    readonly name = 'answer',
  ) {
    this.jsonSchema = parametersJsonSchema({ parameters: schema });
  }

  get responseFormat(): ResponseFormat {
    return { name: this.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'answer', schema: this.jsonSchema as Record<string, unknown> };
  }

  /** For models that cannot be constrained: the instruction that asks for JSON. */
  get instruction(): string {
    return `Give your final answer as one JSON value matching this JSON Schema, and nothing else (no prose, no code fence):\n${JSON.stringify(this.jsonSchema)}`;
  }

  /**
   * Parses an answer (a code fence around it is tolerated) and checks it against the schema; `null`
   * for an optional property that does not take null (strict mode's "absent") counts as absent.
   */
  check(text: string): StructuredCheck {
    let value: unknown;
    try {
      value = JSON.parse(unfence(text));
    } catch (e) {
      return { ok: false, error: `the answer is not JSON (${(e as Error).message})` };
    }
    // Strict mode (OpenAI, Azure) answers null for an optional property it leaves out.
    const valid = validateArguments({ parameters: this.schema }, dropNullsForAbsent(value, this.jsonSchema));
    return valid.ok ? { ok: true, value: valid.value } : { ok: false, error: valid.error };
  }

  /** The message that asks the model for a corrected answer. */
  static retryPrompt(error: string): string {
    return `Your answer does not match the required JSON Schema: ${error}. Answer again with only the corrected JSON value.`;
  }
}

function unfence(text: string): string {
  const t = text.trim();
  const m = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(t);
  return m ? m[1] : t;
}
