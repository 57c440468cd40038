import type { ProblemCollector } from './problems.js';
import type { RawTeam } from './shape-check.js';

/**
 * An agent's `permission_mode`/`allow`/`deny` reach every call made under its name. Inner agents
 * carry fixed names (plan_execute's `executor`, `planner`, `replanner`; a deep agent's
 * `general-purpose`), so rules on an agent of that name would reach them too; and two deep agents'
 * general-purpose helpers share one name, so one's rules would reach the other's.
 */
export function checkPermissionNames(team: RawTeam, c: ProblemCollector): void {
  const agents = [...team.agents];
  const types = new Set(agents.map(([, a]) => a.type ?? 'chat'));
  const inner = new Set([...(types.has('plan_execute') ? ['executor', 'planner', 'replanner'] : []), ...(types.has('deep') ? ['general-purpose'] : [])]);
  const deepWithHelper = agents.filter(([, a]) => a.type === 'deep' && (a as { general_purpose?: boolean }).general_purpose !== false);
  for (const [name, a] of agents) {
    const raw = a as { permission_mode?: unknown; allow?: unknown[]; deny?: unknown[] };
    if ((a.type ?? 'chat') !== 'chat' && a.type !== 'deep') continue;
    if (raw.permission_mode === undefined && !raw.allow?.length && !raw.deny?.length) continue;
    if (inner.has(name)) {
      c.report(['agents', name], `agent '${name}' sets permission_mode/allow/deny, but '${name}' is also the name of an agent inside another one (plan_execute's executor, planner or replanner; a deep agent's general-purpose): its rules would reach that agent too`, {
        at: 'key',
        hint: `rename agent '${name}'`,
      });
    } else if (a.type === 'deep' && deepWithHelper.length > 1 && deepWithHelper.some(([n]) => n === name)) {
      c.report(['agents', name], `deep agent '${name}' sets permission_mode/allow/deny, and its general-purpose sub-agent shares that name with another deep agent's: its rules would reach the other's helper too`, {
        at: 'key',
        hint: 'set general_purpose: false on it, or on the other deep agents',
      });
    }
  }
}
