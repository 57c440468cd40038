import type { SessionSummary } from './api.js';

/** The saved sessions, newest first; one click opens (and resumes) one. A drawer on narrow screens. */
export function SessionList({ sessions, current, open, onOpen, onNew }: { sessions: SessionSummary[]; current?: string | undefined; open: boolean; onOpen: (id: string) => void; onNew: () => void }) {
  return (
    <nav id="sessions" className={open ? 'sessions open' : 'sessions'} aria-label="sessions">
      <button type="button" className="new" onClick={onNew}>
        + New session
      </button>
      <ul>
        {sessions.map((s) => (
          <li key={s.id}>
            <button type="button" className={s.id === current ? 'session current' : 'session'} aria-current={s.id === current ? 'page' : undefined} data-session={s.id} onClick={() => onOpen(s.id)}>
              <span className="title">{s.title || '(untitled)'}</span>
              <span className="meta">
                {s.agent ? `${s.agent} · ` : ''}
                <span className={`status ${s.status ?? ''}`}>{s.status}</span> · {s.id}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
