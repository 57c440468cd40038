import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';
import { researchStep, scriptResearchModel, system } from '../support/research-model.js';

// Issue 15: `/model` with no name lists what the endpoint offers. Issue 33: the bundled research
// team (Deer-Go's graph) in `adk chat`: plan review screen, per-step progress, the report as markdown.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('/model picker (tmux)', () => {
  it('lists the endpoint\'s models; the one picked answers the next turn', async () => {
    server().onRequest((req) => ({ content: `answered by ${req.body.model}` }));
    const { dir, work } = chatWorkspace('adk-model-');
    startChat(tmux, 'model', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('model', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('model', '/model');
    tmux.keys('model', 'Enter');
    await tmux.waitForScreen('model', (s) => s.includes('test-model'), 'the model list');
    await sleep(300);
    tmux.keys('model', 'Enter');
    await tmux.waitForScreen('model', (s) => s.includes(PROMPT) && s.includes('test-model · session'), 'the status line naming the model', 10_000);
    tmux.type('model', 'who are you');
    tmux.keys('model', 'Enter');
    await tmux.waitForScreen('model', (s) => s.includes('answered by test-model'), 'the answer from the picked model');
    expect(server().chatRequests.at(-1)!.body.model).toBe('test-model');
  }, 60_000);
});

describe('the research team in the REPL (tmux)', () => {
  it('the plan is a review screen; accepted, each step shows as in progress in turn, and the report is rendered as markdown', async () => {
    const plan = [researchStep('Gather facts', 'research'), researchStep('Compute totals', 'processing')];
    const report = '# Sky Report\n\nThe sky is **Rayleigh blue**.\n\n## Key Citations\n\n- [Sky notes](https://example.org/sky)';
    const { requestsOf } = scriptResearchModel(server(), { plans: [plan], report, stepDelayMs: 1500 });
    const { dir, work } = chatWorkspace('adk-research-');
    startChat(tmux, 'research', { dir, cwd: work, env: serverChatEnv(dir, server().url), args: ['--agent', 'research'] });
    await tmux.waitForScreen('research', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('research', 'why is the sky blue');
    tmux.keys('research', 'Enter');
    // The planner's plan as the review screen: each step with its kind, accept or give feedback.
    const review = await tmux.waitForScreen('research', (s) => s.includes('proposes a plan') && s.includes('y/Enter'), 'the plan review screen', 15_000);
    expect(review).toContain('1. [research] Gather facts: Do Gather facts.');
    expect(review).toContain('2. [processing] Compute totals: Do Compute totals.');
    expect(review).toContain('research_planner');
    expect(requestsOf('researcher')).toHaveLength(0);
    await sleep(500);
    tmux.keys('research', 'Enter');
    // Progress, step by step: the research step in progress, then the processing step with the first done.
    const first = await tmux.waitForScreen('research', (s) => s.includes('Todos 0/2') && s.includes('◐ Researching: Gather facts'), 'the first step in progress', 15_000);
    expect(first).toContain('☐ [processing] Compute totals');
    const second = await tmux.waitForScreen('research', (s) => s.includes('Todos 1/2') && s.includes('◐ Computing: Compute totals'), 'the second step in progress', 15_000);
    expect(second).toContain('☑ [research] Gather facts');
    const end = await tmux.waitForScreen('research', (s) => s.includes('Sky Report') && s.includes('Key Citations') && s.includes(PROMPT), 'the report', 20_000);
    // Rendered, not raw: no heading marks, no emphasis stars, the link's text shown.
    expect(end).toContain('Rayleigh blue');
    expect(end).not.toContain('**Rayleigh blue**');
    expect(end).not.toMatch(/^\s*#+ (Sky Report|Key Citations)/m);
    expect(end).toContain('Sky notes');
    // The steps went to their roles, in the plan's order, and the reporter saw both results.
    expect(requestsOf('researcher').map((r) => /Current step: ## (.+)/.exec(system(r.body))?.[1])).toEqual(['Gather facts']);
    expect(requestsOf('coder').map((r) => /Current step: ## (.+)/.exec(system(r.body))?.[1])).toEqual(['Compute totals']);
    const reporter = system(requestsOf('reporter')[0]!.body);
    expect(reporter).toContain('Findings for Gather facts');
    expect(reporter).toContain('Computed Compute totals: 42');
  }, 90_000);
});
