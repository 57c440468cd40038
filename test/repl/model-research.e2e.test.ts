import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: `/model` with no name lists what the endpoint offers; the bundled research team's
// planner shows its plan as the plan-review screen (accept, or ask for changes).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const tools = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function.name);
const system = (body: any): string => String(body.messages[0]?.content ?? '');

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

describe('the research team\'s plan review (tmux)', () => {
  it('the planner\'s plan is a review screen; accepting it runs the researchers and the reporter', async () => {
    server().onRequest((req) => {
      const body = req.body;
      const last = body.messages.at(-1);
      if (tools(body).includes('transfer_to_agent') && system(body).includes('coordinate a research team')) {
        return last.role === 'tool' ? { content: '' } : { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: 'research_team' } }] };
      }
      if (tools(body).includes('review_plan')) {
        if (last.role === 'tool') return { content: '1. Find the facts\n2. Check the files' };
        return { toolCalls: [{ name: 'review_plan', arguments: { steps: ['Find the facts', 'Check the files'], message: 'Two steps.' } }] };
      }
      if (system(body).includes('Write the final report')) return { content: '# Report\nAll found.' };
      return { content: 'findings: none needed' };
    });
    const { dir, work } = chatWorkspace('adk-research-');
    startChat(tmux, 'research', { dir, cwd: work, env: serverChatEnv(dir, server().url), args: ['--agent', 'research'] });
    await tmux.waitForScreen('research', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('research', 'research the topic');
    tmux.keys('research', 'Enter');
    const review = await tmux.waitForScreen('research', (s) => s.includes('Find the facts') && s.includes('Check the files') && /accept/i.test(s), 'the plan review screen', 15_000);
    expect(review).toContain('research_planner');
    await sleep(500);
    tmux.keys('research', 'Enter');
    await tmux.waitForScreen('research', (s) => s.includes('All found.') && s.includes(PROMPT), 'the report after the researchers', 20_000);
    const systems = server().chatRequests.map((r) => system(r.body));
    expect(systems.some((s) => s.includes('Researches the steps') || s.includes('using fetch_url'))).toBe(true);
    expect(systems.at(-1)).toContain('Write the final report');
  }, 60_000);
});
