import type { Message } from '../schema/message.js';
import type { ToolInfo } from '../tools/tool.js';
import type { ModelCallOptions } from './chat-model.js';
import { ScriptedChatModel, type ScriptedReply } from './scripted.js';

/** The model name that selects the offline demo model (e.g. `ADK_MODEL=demo`). */
export const DEMO_MODEL_NAME = 'demo';

/**
 * The offline `demo` model: no key, no network. It reads the conversation and the tools it is
 * offered and picks a plausible move, so a new user sees streaming, tool calls, transfers,
 * approvals and questions without an API key. It is a script, not a language model.
 */
export function createDemoModel(): ScriptedChatModel {
  return new ScriptedChatModel((messages, options) => demoReply(messages, options), DEMO_MODEL_NAME, 3);
}

const TOOL_RULES: Array<{ test: RegExp; tool: string; args: (text: string) => Record<string, unknown> }> = [
  { test: /\b(time|date|today|clock)\b/i, tool: 'current_time', args: () => ({}) },
  // Before list_dir: "run ls -la" is a command to run, not a listing.
  { test: /\b(run|shell|command|execute)\b/i, tool: 'shell', args: (t) => ({ command: demoCommand(t) }) },
  { test: /\b(list|files|folder|directory|ls)\b/i, tool: 'list_dir', args: () => ({ path: '.' }) },
  { test: /\bread\s+(\S+)/i, tool: 'read_file', args: (t) => ({ path: /\bread\s+(\S+)/i.exec(t)![1].replace(/[`'".,]+$/, '') }) },
  { test: /\b(ask me|question|quiz|ask_user)\b/i, tool: 'ask_user', args: () => ({ question: 'What should the demo call you?' }) },
  { test: /\b(search|fetch|url|http)\b/i, tool: 'fetch_url', args: (t) => ({ url: /(https?:\/\/\S+)/.exec(t)?.[1] ?? 'http://127.0.0.1:9/' }) },
];

/** The command in `run \`ls -la\`` or `run ls -la`; a harmless one otherwise. */
function demoCommand(text: string): string {
  const quoted = /`([^`]+)`/.exec(text)?.[1];
  if (quoted) return quoted;
  const after = /\brun\s+(?:the\s+command\s+)?(.+)$/i.exec(text.trim())?.[1]?.trim();
  return after && !/^(a|the|some)\s/i.test(after) ? after.replace(/[.!?]+$/, '') : 'echo "hello from the demo shell" && uname -s';
}

export function demoReply(messages: Message[], options?: ModelCallOptions): ScriptedReply {
  const tools = options?.tools ?? [];
  const has = (name: string) => tools.some((t) => t.name === name);
  const last = messages[messages.length - 1];
  const userText = lastUserText(messages);

  if (has('plan')) return { toolCalls: [{ name: 'plan', arguments: { steps: planFor(userText) } }] };
  if (has('write_todos') && has('task')) return deepStep(messages, userText);
  if (has('respond') && last?.role !== 'tool') {
    return { toolCalls: [{ name: 'respond', arguments: { response: `Demo summary: the plan for “${short(userText)}” is complete.` } }] };
  }
  if (last?.role === 'tool') return summarize(last);

  const target = transferTarget(tools, userText, messages);
  if (target) return { content: `Handing this to **${target}**.`, toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: target } }] };

  for (const rule of TOOL_RULES) {
    if (has(rule.tool) && rule.test.test(userText)) {
      return { content: `Let me use \`${rule.tool}\` for that.`, toolCalls: [{ name: rule.tool, arguments: rule.args(userText) }], chunkDelayMs: 8 };
    }
  }
  if (has('exit') && /\b(done|finish|stop)\b/i.test(userText)) {
    return { toolCalls: [{ name: 'exit', arguments: { final_result: 'Demo finished.' } }] };
  }
  return { content: welcome(userText, tools), chunkDelayMs: 8 };
}

/** The messages after the user's latest own question. */
function sinceLastQuestion(messages: Message[]): Message[] {
  let i = messages.length - 1;
  while (i >= 0 && !(messages[i].role === 'user' && !messages[i].content.startsWith('For context:'))) i--;
  return messages.slice(i + 1);
}

function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && !m.content.startsWith('For context:')) return m.content;
  }
  return '';
}

/** Transfers once per question, when the request names a sub-agent or asks to delegate. */
function transferTarget(tools: ToolInfo[], text: string, messages: Message[]): string | undefined {
  if (!tools.some((t) => t.name === 'transfer_to_agent')) return undefined;
  // Another agent already acted on this question (earlier questions of the session do not count).
  if (sinceLastQuestion(messages).some((m) => m.role === 'user' && m.content.startsWith('For context:'))) return undefined;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const names = [...system.matchAll(/- Agent name: (\S+)/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  const lower = text.toLowerCase();
  const named = names.find((n) => lower.includes(n.toLowerCase()) || lower.includes(n.toLowerCase().replace(/^demo_/, '')));
  if (named) return named;
  return /\b(delegate|transfer|hand (it )?over|team)\b/i.test(text) ? names[0] : undefined;
}

function summarize(tool: Message): ScriptedReply {
  const body = tool.content.length > 600 ? `${tool.content.slice(0, 600)}\n…` : tool.content;
  const fence = body.includes('\n') ? `\n\n\`\`\`text\n${body}\n\`\`\`\n` : ` \`${body}\`\n`;
  return { content: `Here is what \`${tool.toolName}\` returned:${fence}\n_(This is the offline demo model: set OPENAI_API_KEY for real answers.)_`, chunkDelayMs: 6 };
}

/** The deep demo: a todo list, two parallel tasks for the general-purpose sub-agent, the list ticked off, a report. */
function deepStep(messages: Message[], text: string): ScriptedReply {
  const since = sinceLastQuestion(messages);
  const calls = since.flatMap((m) => (m.toolCalls ?? []).map((c) => c.function.name));
  const todos = (statuses: string[]) => ({
    todos: [
      { content: 'Look at the files here', activeForm: 'Looking at the files here' },
      { content: 'Check the time', activeForm: 'Checking the time' },
      { content: 'Report back', activeForm: 'Reporting back' },
    ].map((t, i) => ({ ...t, status: statuses[i] })),
  });
  const writes = calls.filter((c) => c === 'write_todos').length;
  if (writes === 0) return { content: `Planning “${short(text)}”.`, toolCalls: [{ name: 'write_todos', arguments: todos(['in_progress', 'pending', 'pending']) }], chunkDelayMs: 8 };
  if (!calls.includes('task')) {
    return {
      content: 'Two independent pieces: handing both to sub-agents at once.',
      toolCalls: [
        { name: 'task', arguments: { subagent: 'general-purpose', description: 'List the files in the current folder with list_dir and report them.' } },
        { name: 'task', arguments: { subagent: 'general-purpose', description: 'What time is it now? Use current_time.' } },
      ],
      chunkDelayMs: 8,
    };
  }
  if (writes === 1) return { toolCalls: [{ name: 'write_todos', arguments: todos(['completed', 'completed', 'in_progress']) }] };
  const reports = since.filter((m) => m.role === 'tool' && m.toolName === 'task').map((m) => `- ${m.content.split('\n')[0].slice(0, 120)}`);
  return { content: `Done. The sub-agents reported:\n\n${reports.join('\n')}\n\n_(This is the offline demo model: set OPENAI_API_KEY for real answers.)_`, chunkDelayMs: 6 };
}

function planFor(text: string): string[] {
  return [`Look up background for: ${short(text)}`, 'Collect the key facts', 'Write a short report'];
}

function welcome(text: string, tools: ToolInfo[]): string {
  const names = tools.map((t) => `\`${t.name}\``).join(', ') || 'none';
  return [
    `## Offline demo`,
    ``,
    `You said: “${short(text)}”. I am the **demo model**: a script that shows what adk can do without an API key.`,
    ``,
    `Try asking me to:`,
    `- *list the files here* (calls \`list_dir\`)`,
    `- *what time is it* (calls \`current_time\`)`,
    `- *run \`ls -la\`* (calls \`shell\`, which asks for your approval first)`,
    `- *ask me a question* (calls \`ask_user\`)`,
    ``,
    `Tools available to this agent: ${names}.`,
    ``,
    '```bash',
    'export OPENAI_API_KEY=sk-...        # or OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama',
    'adk chat --model gpt-4o-mini',
    '```',
  ].join('\n');
}

const short = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
