import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, startChat, useTmux } from './tmux.js';

// Issue 15: cost in money. The status line and /cost show tokens and dollars, per turn and per
// session, at the model's list price or the `price:` set in agents.yaml.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

function chat(name: string, env: Record<string, string>, agentsYaml?: string) {
  const { dir, work } = chatWorkspace(`adk-cost-${name}-`);
  if (agentsYaml) writeFileSync(join(work, 'agents.yaml'), agentsYaml);
  startChat(tmux, name, { dir, cwd: work, env: { ADK_HOME: join(dir, 'home'), OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'test-key-123456', ...env } });
}

describe('/cost (tmux)', () => {
  it('a known model: the list price, per turn and per session', async () => {
    server().onRequest(() => ({ content: 'ok', usage: { promptTokens: 10_000, completionTokens: 5_000 } }));
    chat('cost', { ADK_MODEL: 'gpt-4o-mini' });
    await tmux.waitForScreen('cost', (s) => s.includes(PROMPT), 'the prompt');
    for (const text of ['one', 'two']) {
      tmux.type('cost', text);
      tmux.keys('cost', 'Enter');
      await tmux.waitForScreen('cost', (s) => s.includes(PROMPT) && !s.includes('esc to cancel') && s.split('● ').length > (text === 'one' ? 1 : 2), `answer ${text}`);
    }
    await tmux.waitForScreen('cost', (s) => s.includes('↑20k ↓10k $0.0090'), 'the session cost in the status line');
    tmux.type('cost', '/cost');
    tmux.keys('cost', 'Enter');
    const screen = await tmux.waitForScreen('cost', (s) => s.includes('This session:'), 'the /cost answer');
    expect(screen.replace(/\s+/g, ' ')).toContain('This session: 20k in, 10k out = $0.0090. Last turn: 10k in, 5.0k out = $0.0045. Priced at $0.15 / $0.6 per million tokens');
  }, 60_000);

  it('price: in agents.yaml overrides it', async () => {
    server().onRequest(() => ({ content: 'ok', usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 } }));
    const yaml = 'version: 1\ndefault: helper\nmodels:\n  default: { model: my-local-model, price: { input: 1, output: 2 } }\nagents:\n  helper:\n    description: Helps.\n    instruction: Help.\n';
    chat('costyaml', { ADK_MODEL: 'ignored' }, yaml);
    await tmux.waitForScreen('costyaml', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('costyaml', 'hi');
    tmux.keys('costyaml', 'Enter');
    await tmux.waitForScreen('costyaml', (s) => s.includes('↑1.0M ↓1.0M $3.00'), 'the cost at the configured price');
  }, 60_000);
});
