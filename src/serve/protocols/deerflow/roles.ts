/** DeerFlow's message roles (`agent` of its events); `background_investigator` speaks only to the planner. */
export type DeerFlowRole = 'coordinator' | 'planner' | 'researcher' | 'coder' | 'reporter' | 'background_investigator';

/** Maps adk agent names to DeerFlow's roles; unlisted names are matched by what they contain. */
export function deerflowRole(agent: string, roles: Record<string, DeerFlowRole> = {}): DeerFlowRole {
  if (Object.prototype.hasOwnProperty.call(roles, agent)) return roles[agent]!;
  // Most specific first: `research_coordinator` coordinates, `research_coder` codes.
  if (/coordinat/.test(agent)) return 'coordinator';
  if (/investigat/.test(agent)) return 'background_investigator';
  if (/plan/.test(agent)) return 'planner';
  if (/report|writ/.test(agent)) return 'reporter';
  if (/cod|exec|engineer/.test(agent)) return 'coder';
  if (/research|search|web|file/.test(agent)) return 'researcher';
  return 'coordinator';
}
