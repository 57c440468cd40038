import type { Todo } from './api.js';

const MARK: Record<string, string> = { completed: '☑', in_progress: '◐', pending: '☐' };

/** The deep agent's todo list as it last wrote it; collapsible, its progress in the summary. */
export function TodoPanel({ todos }: { todos: Todo[] }) {
  if (!todos.length) return null;
  const done = todos.filter((t) => t.status === 'completed').length;
  return (
    <details className="todos" open>
      <summary>
        Todos <span className="count">{done}/{todos.length}</span>
      </summary>
      <ul aria-label="todos">
        {todos.map((t, i) => (
          <li key={i} className={`todo ${t.status}`}>
            <span className="mark" aria-hidden="true">
              {MARK[t.status] ?? '☐'}
            </span>
            <span>{t.status === 'in_progress' && t.activeForm ? t.activeForm : t.content}</span>
            <span className="visually-hidden"> ({t.status.replace('_', ' ')})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
