import { describe, expect, it } from 'vitest';
import { formatProblems, validateConfig } from '../../src/core/config/index.js';

// Issue 43, item 8: a Go developer following the seeds writes `max_iterations: 0` (Eino's "default");
// adk accepted it silently. It is refused where it stands, with the fix; a loop's 0 (unbounded, as in
// Eino) stays.
const agents = (extra: string) => `version: 1\nagents:\n  helper:\n    description: d\n    instruction: i\n${extra}`;

describe("porters' traps in agents.yaml", () => {
  it('max_iterations: 0 on a model agent is an error at file:line:col naming the default', () => {
    const r = validateConfig({ text: agents('    max_iterations: 0\n'), file: 'agents.yaml' });
    expect(r.ok).toBe(false);
    expect(formatProblems(r.problems)).toMatch(/agents\.yaml:6:\d+ .*max_iterations: 0 is no limit for chat agent 'helper' \(Eino reads it as the default\)[\s\S]*leave it out for the default \(20\)/);
  });

  it('a loop may say 0 (unbounded); a model agent may say 1', () => {
    const loop = `version: 1\nagents:\n  again:\n    type: loop\n    sub_agents: [helper]\n    max_iterations: 0\n  helper:\n    description: d\n    instruction: i\n    max_iterations: 1\n`;
    expect(validateConfig({ text: loop, file: 'agents.yaml' }).problems).toEqual([]);
  });
});
