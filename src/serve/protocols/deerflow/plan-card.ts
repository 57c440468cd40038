/** DeerFlow's plan card for a plan that came as a list of steps (a `review_plan` call of another team). */
export function deerflowPlan(steps: readonly string[], title: string, thought: string, locale = 'en-US') {
  return {
    locale,
    has_enough_context: false,
    title,
    thought,
    steps: steps.map((s) => {
      const cut = s.search(/[:.]\s/);
      return { need_search: true, step_type: 'research', title: cut > 0 ? s.slice(0, cut) : s, description: s };
    }),
  };
}

/** The review buttons DeerFlow's server sends with a plan (src/server/app.py). */
export const PLAN_OPTIONS = [
  { text: 'Edit plan', value: 'edit_plan' },
  { text: 'Start research', value: 'accepted' },
];

export const APPROVAL_OPTIONS = [
  { text: 'Approve', value: 'accepted' },
  { text: 'Reject', value: 'rejected' },
];
