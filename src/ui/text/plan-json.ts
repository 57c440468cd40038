/**
 * A research planner's reply (DeerFlow's plan JSON: `{title, thought, steps: [{title, description,
 * step_type}], …}`, maybe fenced) as markdown for the transcript; undefined for any other text.
 */
export function planAsMarkdown(text: string): string | undefined {
  const body = text.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n```$/, '$1');
  if (!body.startsWith('{') || !body.includes('"steps"')) return undefined;
  let plan: { title?: unknown; thought?: unknown; has_enough_context?: unknown; steps?: unknown };
  try {
    plan = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(plan.steps) || typeof plan.title !== 'string') return undefined;
  const steps = plan.steps.map((s: { title?: unknown; description?: unknown; step_type?: unknown }, i: number) => {
    const kind = s.step_type === 'processing' ? 'processing' : 'research';
    return `${i + 1}. **${String(s.title ?? '')}** _(${kind})_${s.description ? ` — ${String(s.description)}` : ''}`;
  });
  const thought = typeof plan.thought === 'string' && plan.thought ? `\n\n${plan.thought}` : '';
  const enough = plan.has_enough_context === true ? '\n\n_Enough is known already: straight to the report._' : '';
  return `**Plan: ${plan.title}**${thought}\n\n${steps.join('\n')}${enough}`;
}
