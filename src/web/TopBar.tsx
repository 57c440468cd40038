import type { Team } from './api.js';
import { TeamPicker } from './TeamPicker.js';

/** The bar above the transcript: the sessions drawer's button (narrow screens), the team, and the live transfer path. */
export function TopBar(p: { teams: Team[]; team: string; onTeam: (t: string) => void; path: string[]; running: boolean; drawerOpen: boolean; onDrawer: () => void }) {
  return (
    <header className="topbar">
      <button type="button" className="icon menu" aria-label="sessions" aria-expanded={p.drawerOpen} aria-controls="sessions" onClick={p.onDrawer}>
        ☰
      </button>
      <TeamPicker teams={p.teams} value={p.team} onChange={p.onTeam} />
      <nav className="breadcrumb" aria-label="transfer path">
        {p.running ? (
          <ol>
            {(p.path.length ? p.path : ['working']).map((name, i, all) => (
              <li key={`${i}-${name}`} aria-current={i === all.length - 1 ? 'step' : undefined}>
                {name}
              </li>
            ))}
          </ol>
        ) : null}
      </nav>
      {p.running ? <span className="spinner" role="status" aria-label="working" /> : null}
    </header>
  );
}
