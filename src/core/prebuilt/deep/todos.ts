import * as z from 'zod';
import type { Tool } from '../../tools/tool.js';

/** The states a todo moves through, in order. */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
/** One of TODO_STATUSES. */
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of the list a deep agent keeps with `write_todos`. */
export interface Todo {
  content: string;
  status: TodoStatus;
  /** The present-tense form shown while it is in progress ("Running the tests"). */
  activeForm?: string | undefined;
}

/** The custom event `write_todos` emits (`output.custom`); the REPL's todo panel and `adk run --json` show it. */
export interface TodosEvent {
  type: 'todos';
  agent: string;
  todos: Todo[];
}

/** ☐ pending, ◐ in progress, ☑ completed. */
export function todoMark(status: TodoStatus): string {
  return status === 'completed' ? '☑' : status === 'in_progress' ? '◐' : '☐';
}

/** True when a custom event value is a TodosEvent. */
export function isTodosEvent(x: unknown): x is TodosEvent {
  return !!x && typeof x === 'object' && (x as { type?: unknown }).type === 'todos' && Array.isArray((x as { todos?: unknown }).todos);
}

/** Session value that holds the latest list (Eino keeps it under a session key too). */
export const TODOS_SESSION_KEY = 'todos';

const parameters = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('What to do, in the imperative ("Run the tests")'),
        status: z.enum(TODO_STATUSES).describe('pending, in_progress (one at a time) or completed'),
        activeForm: z.string().optional().describe('The same in the present continuous ("Running the tests")'),
      }),
    )
    .describe('The whole list, every time: it replaces the previous one'),
});

export const WRITE_TODOS_DESCRIPTION = `Write the todo list for the current task: the whole list each time (it replaces the last one).
Use it for work of three or more steps: write the steps, mark one in_progress before you start it, and mark it completed as soon as it is done. Do not use it for a single small step.`;

/** `write_todos`: replaces the list, keeps it in the session and shows it to the person. */
export const writeTodosTool: Tool<z.infer<typeof parameters>> = {
  name: 'write_todos',
  readOnly: true,
  description: WRITE_TODOS_DESCRIPTION,
  parameters,
  execute({ todos }, ctx) {
    const list: Todo[] = todos.map((t) => (t.activeForm ? { content: t.content, status: t.status, activeForm: t.activeForm } : { content: t.content, status: t.status }));
    ctx.sessionValues[TODOS_SESSION_KEY] = list;
    const event: TodosEvent = { type: 'todos', agent: ctx.agentName, todos: list };
    ctx.emit({ agentName: ctx.agentName, runPath: [], output: { custom: event } });
    return `Updated todo list to ${JSON.stringify(list)}`;
  },
};
