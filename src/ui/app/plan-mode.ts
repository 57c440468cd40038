/** The person's review of the plan a plan-mode turn ended with. */
export type PlanModeDecision = { kind: 'accept' } | { kind: 'accept-clear' } | { kind: 'feedback'; feedback: string } | { kind: 'keep' };
