export interface TextToolCall {
  name: string;
  /** JSON text. */
  arguments: string;
}

const BLOCK = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

/**
 * Tool calls a model left in its text in the Hermes/Qwen format, `<tool_call>{"name": …, "arguments": {…}}</tool_call>`
 * (vLLM without the right tool parser, local chat templates). Returns undefined unless every block is
 * a call to an offered tool with object arguments and nothing but whitespace lies between blocks:
 * anything else stays text, as the model wrote it.
 */
export function parseTextToolCalls(text: string, toolNames: ReadonlySet<string>): TextToolCall[] | undefined {
  const calls: TextToolCall[] = [];
  let last = 0;
  for (const m of text.matchAll(BLOCK)) {
    if (text.slice(last, m.index).trim()) return undefined;
    last = m.index + m[0].length;
    let parsed: unknown;
    try {
      parsed = JSON.parse(m[1]!.trim());
    } catch {
      return undefined;
    }
    const { name, arguments: args, parameters } = (parsed ?? {}) as { name?: unknown; arguments?: unknown; parameters?: unknown };
    const input = args ?? parameters ?? {};
    if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
    if (typeof input === 'string') {
      try {
        JSON.parse(input);
      } catch {
        return undefined;
      }
      calls.push({ name, arguments: input });
    } else if (input && typeof input === 'object' && !Array.isArray(input)) calls.push({ name, arguments: JSON.stringify(input) });
    else return undefined;
  }
  if (text.slice(last).trim()) return undefined;
  return calls.length ? calls : undefined;
}
