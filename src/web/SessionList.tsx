import type { SessionSummary } from './api.js';

/** The saved sessions, newest first; one click opens (and resumes) one. */
export function SessionList({ sessions, current, onOpen, onNew }: { sessions: SessionSummary[]; current?: string; onOpen: (id: string) => void; onNew: () => void }) {
  return (
    <nav className="sessions">
      <button className="new" onClick={onNew}>
        + New session
      </button>
      <ul>
        {sessions.map((s) => (
          <li key={s.id}>
            <button className={s.id === current ? 'session current' : 'session'} data-session={s.id} onClick={() => onOpen(s.id)}>
              <span className="title">{s.title || '(untitled)'}</span>
              <span className="meta">
                {s.id} · {s.status}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
