import type { ToolChoice } from '../../models/chat-model.js';
import type { ToolCall } from '../../schema/message.js';
import type { ToolInfo } from '../../tools/tool.js';

/**
 * A forced tool call a model wrote as JSON text (servers that ignore `tool_choice`: llama.cpp without
 * a tool template, some vLLM parsers, LM Studio models without tool support): the first JSON object
 * in the text (fenced or bare), read as the arguments of the forced tool, of the tool it names
 * (`{"name", "arguments"}`), or of the one tool whose required keys it has. Undefined otherwise.
 */
export function toolCallFromText(text: string, tools: readonly ToolInfo[], choice: ToolChoice, id: string): ToolCall | undefined {
  const obj = firstJsonObject(text);
  if (!obj) return undefined;
  const named = typeof obj.name === 'string' && obj.arguments && typeof obj.arguments === 'object' ? tools.find((t) => t.name === obj.name) : undefined;
  if (named) return { id, function: { name: named.name, arguments: JSON.stringify(obj.arguments) } };
  const forced = typeof choice === 'object' ? tools.find((t) => t.name === choice.name) : tools.length === 1 ? tools[0] : undefined;
  const tool = forced ?? onlyMatch(tools, obj);
  return tool ? { id, function: { name: tool.name, arguments: JSON.stringify(obj) } } : undefined;
}

/** What to say when the model answered in text although a tool was required. */
export function toolReminder(tools: readonly ToolInfo[]): string {
  const names = tools.map((t) => `\`${t.name}\``).join(' or ');
  return `You answered in text, but this step needs a call to ${names}. Call it now with its JSON arguments; if you cannot call tools, reply with only the JSON arguments object.`;
}

function onlyMatch(tools: readonly ToolInfo[], obj: Record<string, unknown>): ToolInfo | undefined {
  const fits = tools.filter((t) => {
    const required = (t.parameters as { required?: unknown }).required;
    return Array.isArray(required) && required.length > 0 && required.every((k) => typeof k === 'string' && k in obj);
  });
  return fits.length === 1 ? fits[0] : undefined;
}

function firstJsonObject(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  for (const candidate of [fenced, text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)]) {
    if (!candidate?.trim().startsWith('{')) continue;
    try {
      const v = JSON.parse(candidate.trim()) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // Not JSON: the next candidate, or none.
    }
  }
  return undefined;
}
