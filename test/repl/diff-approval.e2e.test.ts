import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: the bundled assistant asks before editing a file, and the approval shows a diff.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('edit_file asks, with a diff (tmux)', () => {
  it('the approval box shows the lines that change; approving writes them', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'Renamed it.' };
      return { toolCalls: [{ name: 'edit_file', arguments: { path: 'app.py', old: 'def helo():', new: 'def hello():' } }] };
    });
    const { dir, work } = chatWorkspace('adk-diff-');
    writeFileSync(join(work, 'app.py'), 'import os\n\ndef helo():\n    return 1\n');
    startChat(tmux, 'diff', { dir, cwd: work, env: serverChatEnv(dir, server().url) });
    await tmux.waitForScreen('diff', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('diff', 'fix the typo in app.py');
    tmux.keys('diff', 'Enter');
    const screen = await tmux.waitForScreen('diff', (s) => s.includes('approve once') && s.includes('+def hello():'), 'the diff in the approval box');
    expect(screen).toContain('-def helo():');
    expect(screen).toContain('@@ -1,4 +1,4 @@');
    expect(readFileSync(join(work, 'app.py'), 'utf8')).toContain('def helo():');
    await sleep(500);
    tmux.keys('diff', 'y');
    const after = await tmux.waitForScreen('diff', (s) => s.includes('Renamed it.'), 'the answer');
    // The transcript row keeps the change: the file, then the lines removed and added.
    expect(after).toMatch(/✓ edit_file app\.py\n\s+- def helo\(\):\n\s+\+ def hello\(\):/);
    expect(readFileSync(join(work, 'app.py'), 'utf8')).toBe('import os\n\ndef hello():\n    return 1\n');
  }, 60_000);
});
