import type { OpenAITestServer, RecordedRequest } from './openai-server.js';

/**
 * A scripted OpenAI-compatible model for the bundled `research` team (agents.yaml): it tells each
 * role by a line of its instruction and answers as that role would. Used by the DeerFlow, queue and
 * headless tests, so they all drive the same graph with the same replies.
 */
export type StepType = 'research' | 'processing';
export interface ScriptedStep {
  need_search: boolean;
  title: string;
  description: string;
  step_type: StepType;
}

export const researchStep = (title: string, type: StepType): ScriptedStep => ({ need_search: type === 'research', title, description: `Do ${title}.`, step_type: type });

export interface ResearchScript {
  /** The plans the planner writes, one per planning (the last repeats). */
  plans?: ScriptedStep[][] | undefined;
  /** The planner says it has enough context (straight to the reporter). */
  enough?: boolean | undefined;
  /** The coder first runs this shell command, then reports its output. */
  coderShell?: string | undefined;
  /** The reporter's report (markdown). */
  report?: string | undefined;
  /** The researcher and the coder take this long to answer (so a screen can show the step in progress). */
  stepDelayMs?: number | undefined;
}

export const system = (body: any): string => String(body.messages[0]?.content ?? '');
export const lastUser = (body: any): string => String([...body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '');

/** Markers of each role's instruction in the bundled agents.yaml. */
export const ROLE_MARKERS = {
  coordinator: 'You are DeerFlow, a friendly research assistant',
  investigator: 'Search the web for:',
  planner: 'professional deep researcher',
  researcher: 'You are a researcher working one step',
  coder: 'You are a coder working one processing step',
  reporter: 'You are a professional reporter',
} as const;

export function scriptResearchModel(server: OpenAITestServer, o: ResearchScript = {}): { requestsOf(role: keyof typeof ROLE_MARKERS): RecordedRequest[] } {
  const plans = o.plans ?? [
    [researchStep('Gather facts', 'research'), researchStep('Compute totals', 'processing')],
    [researchStep('Gather facts', 'research'), researchStep('Compute totals', 'processing'), researchStep('Compare sources', 'research')],
  ];
  let planned = 0;
  const slow = <T>(reply: T): T | Promise<T> => (o.stepDelayMs ? new Promise((r) => setTimeout(() => r(reply), o.stepDelayMs)) : reply);
  server.onRequest((req) => {
    const body = req.body;
    const sys = system(body);
    const last = body.messages.at(-1);
    if (sys.includes(ROLE_MARKERS.coordinator)) {
      if (last.role === 'tool') return { content: '' };
      if (/^(hello|hi)\b/i.test(lastUser(body))) return { content: 'Hello! What shall we research?' };
      return { toolCalls: [{ name: 'handoff_to_planner', arguments: { research_topic: lastUser(body), locale: /locale setting is (\S+):/.exec(sys)?.[1] ?? 'en-US' } }] };
    }
    if (sys.includes(ROLE_MARKERS.investigator)) return { content: '- background: the sky is blue (https://example.org/sky)' };
    if (sys.includes(ROLE_MARKERS.planner)) {
      const steps = plans[Math.min(planned++, plans.length - 1)]!;
      return { content: JSON.stringify({ locale: /language of locale (\S+?)\./.exec(sys)?.[1] ?? 'en-US', has_enough_context: !!o.enough, thought: `Plan ${planned}.`, title: 'Sky research', steps }), chunkSize: 40 };
    }
    const current = /Current step: ## (.+)/.exec(sys)?.[1];
    if (sys.includes(ROLE_MARKERS.researcher)) return slow({ content: `Findings for ${current}: blue (https://example.org/${planned})` });
    if (sys.includes(ROLE_MARKERS.coder)) {
      if (o.coderShell && last.role !== 'tool') return { toolCalls: [{ name: 'shell', arguments: { command: o.coderShell } }] };
      const ran = last.role === 'tool' ? ` (shell said: ${String(last.content).trim()})` : '';
      return slow({ content: `Computed ${current}: 42${ran}` });
    }
    if (sys.includes(ROLE_MARKERS.reporter)) return { content: o.report ?? '# Report\n\nThe sky is blue.', chunkSize: 6 };
    return { content: `unexpected request: ${sys.slice(0, 80)}` };
  });
  return { requestsOf: (role) => server.chatRequests.filter((r) => system(r.body).includes(ROLE_MARKERS[role])) };
}
