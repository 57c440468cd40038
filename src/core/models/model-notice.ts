/**
 * Something about the model a person should know, as a custom event (`output.custom`): another
 * model answered after this one failed (`fallback`), or its context window is a guess (`context_window`).
 * The REPL shows `text` as a notice line; `adk run --json` and serve print the fields.
 */
export type ModelNotice =
  | { type: 'model_notice'; kind: 'fallback'; text: string; from: string; to: string; error: string }
  | { type: 'model_notice'; kind: 'context_window'; text: string; model: string; window: number };

/** True when a custom event value is a ModelNotice. */
export function isModelNotice(x: unknown): x is ModelNotice {
  return !!x && typeof x === 'object' && (x as { type?: unknown }).type === 'model_notice';
}

/** The notice of a fallback: `from` failed after its retries, `to` answers instead. */
export function fallbackNotice(from: string, to: string, error: Error): ModelNotice {
  return { type: 'model_notice', kind: 'fallback', from, to, error: error.message, text: `${from} failed (${error.message}); ${to} answers instead` };
}

/** The notice of a window adk had to assume because neither the settings nor the server tell it. */
export function defaultWindowNotice(model: string, window: number): ModelNotice {
  return {
    type: 'model_notice',
    kind: 'context_window',
    model,
    window,
    text: `the context window of ${model} is unknown (its server does not say): assuming ${window} tokens; set context_window on its models: entry`,
  };
}
