import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKeyValueStore, SessionStore } from '../../src/core/store/index.js';
import { chatWorkspace, clearsIn, startChat, useTmux } from './tmux.js';

// Issue 32 (W7): `adk resume` of a long session shows the input box at once and then writes every
// turn into the scrollback, in order, a batch at a time, code highlighted (cli-highlight loads after
// the first frame, Ink's Output is the bundle's own), with no clear.
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const TURNS = 30;

function answer(n: number): string {
  return [`## Answer ${n}`, `Paragraph of answer ${n} with **bold** and \`code\` and ✅.`, '| file | ok |', '|---|---|', `| src/m${n}.ts | ✅ |`, '```ts', `export const value${n} = compute(${n});`, '```', `Last line of answer ${n}.`].join('\n\n');
}

describe('adk resume of a long session (tmux)', () => {
  it('writes all 30 turns in order into the scrollback, code highlighted, with no clear', async () => {
    const { dir, work } = chatWorkspace('adk-resume-long-');
    const store = `sqlite://${join(dir, 'adk.sqlite')}`;
    const kv = await openKeyValueStore(store);
    const sessions = new SessionStore(kv, { env: {} });
    const messages = [];
    for (let i = 0; i < TURNS; i++) messages.push({ role: 'user' as const, content: `question ${i}` }, { role: 'assistant' as const, content: answer(i) });
    const rec = await sessions.create({ id: 'longsess', rootAgent: 'assistant', title: 'a long session' });
    await sessions.save({ ...rec, messages, status: 'completed' });
    await kv.close();

    const raw = join(dir, 'raw.out');
    const env = { ADK_HOME: join(dir, 'home'), ADK_STORE: store, OPENAI_API_KEY: 'sk-unused-123456', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    startChat(tmux, 'long', { dir, cwd: work, raw, env, size: [120, 40], command: 'resume', args: ['longsess'] });
    await tmux.waitForScreen('long', (s) => s.includes(PROMPT) && s.includes(`Last line of answer ${TURNS - 1}.`), 'the last answer above the input box');

    const history = tmux.capture('long', true);
    let at = -1;
    for (let i = 0; i < TURNS; i++) {
      const heading = history.indexOf(`Answer ${i}\n`, at + 1);
      expect(heading, `answer ${i} in the scrollback, after answer ${i - 1}`).toBeGreaterThan(at);
      expect(history.split(`Last line of answer ${i}.`).length - 1, `answer ${i} written once`).toBe(1);
      at = heading;
    }
    const bytes = readFileSync(raw, 'latin1');
    // highlight.js colours `export` (a keyword): an SGR code right before it, in the bundle as run.
    expect(bytes).toMatch(/\x1b\[[0-9;]*m\s*export\b/);
    expect(clearsIn(bytes)).toBe(0);
  });
});
