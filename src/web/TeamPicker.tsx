import type { Team } from './api.js';

/** Which team (root agent) a new session talks to; an open session shows its own. */
export function TeamPicker({ teams, value, onChange }: { teams: Team[]; value: string; onChange: (team: string) => void }) {
  if (!teams.length) return null;
  return (
    <label className="team-picker">
      <span className="visually-hidden">team</span>
      <select aria-label="team" value={value} onChange={(e) => onChange(e.target.value)}>
        {teams.map((t) => (
          <option key={t.name} value={t.name}>
            {t.name}
            {t.type && t.type !== 'chat' ? ` (${t.type})` : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
