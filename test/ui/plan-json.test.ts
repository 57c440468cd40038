import { describe, expect, it } from 'vitest';
import { planAsMarkdown } from '../../src/ui/text/plan-json.js';

// Issue 33: the research planner's plan JSON reads as a plan in the REPL, as DeerFlow's plan card does.
describe('planAsMarkdown', () => {
  it('turns DeerFlow plan JSON (plain or fenced) into a numbered plan with each step’s kind', () => {
    const plan = { locale: 'en-US', has_enough_context: false, thought: 'Two angles.', title: 'Solar output', steps: [{ need_search: true, title: 'Gather data', description: 'Find the numbers', step_type: 'research' }, { need_search: false, title: 'Compute totals', description: 'Sum them', step_type: 'processing' }] };
    const md = '**Plan: Solar output**\n\nTwo angles.\n\n1. **Gather data** _(research)_ — Find the numbers\n2. **Compute totals** _(processing)_ — Sum them';
    expect(planAsMarkdown(JSON.stringify(plan, null, 2))).toBe(md);
    expect(planAsMarkdown('```json\n' + JSON.stringify(plan) + '\n```')).toBe(md);
  });

  it('leaves every other text alone', () => {
    expect(planAsMarkdown('Here is the plan: { "steps": [] }')).toBeUndefined();
    expect(planAsMarkdown('{"steps": "not a list", "title": "x"}')).toBeUndefined();
    expect(planAsMarkdown('{"steps": [], "title": ')).toBeUndefined();
  });
});
