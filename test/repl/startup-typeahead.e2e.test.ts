import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep, tempDir } from './helpers.js';
import { startChat, useTmux } from './tmux.js';

// Issue 15, defect 2: text typed while adk chat starts is not echoed above the banner by the
// terminal, and its Enter sends it once the REPL is up.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('typing while adk chat starts (tmux)', () => {
  it('is neither echoed above the banner nor left unsent', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const dir = tempDir('adk-early-');
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    startChat(tmux, 'early', { dir, cwd: work, env: { ADK_HOME: join(dir, 'home'), OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test' } });
    // Before the first frame: node is still loading adk.
    await sleep(120);
    tmux.type('early', 'typed early');
    tmux.keys('early', 'Enter');
    const screen = await tmux.waitForScreen('early', (s) => s.includes('got: typed early') && s.includes(PROMPT), 'the early message sent', 30_000, true);
    const before = screen.slice(0, screen.indexOf('adk ·'));
    expect(before).not.toContain('typed early');
    expect(server().chatRequests).toHaveLength(1);
  }, 60_000);
});
