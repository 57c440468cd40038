import { listHooks } from '../../core/middlewares/hooks/config.js';
import type { Team } from '../team.js';

/** `/hooks`: every hook that runs, one row each (event, matcher, command, the file it is in), and any left out. */
export function hooksText(team: Pick<Team, 'hooks' | 'hooksNotice'>): string {
  const rows = listHooks(team.hooks?.config ?? {}).map(
    (h) => `| ${h.event} | \`${cell(h.matcher)}\` | \`${cell(h.command)}\`${h.timeout ? ` (${h.timeout} s)` : ''} | ${cell(h.source ?? 'library')} |`,
  );
  const table = rows.length
    ? ['| event | matcher | command | file |', '|---|---|---|---|', ...rows].join('\n')
    : 'No hooks. Add them under `hooks` in `.adk/settings.json`, `.adk/settings.local.json` or your own `settings.json` in ADK_HOME (Claude Code\'s format; see docs/hooks.md).';
  const recent = team.hooks?.recentNotices ?? [];
  const said = recent.length ? `\n\n**Recent hook messages:**\n${recent.map((n) => `- ${n.replace(/\n/g, ' ')}`).join('\n')}` : '';
  return `${team.hooksNotice ? `${table}\n\n${team.hooksNotice}` : table}${said}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\n/g, ' ');
}
