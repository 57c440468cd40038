import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15: Ctrl-G opens $EDITOR on the message; what it saves comes back into the box.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

describe('Ctrl-G edits the message in $EDITOR (tmux)', () => {
  it('the editor gets the draft (and no key), its text comes back, Enter sends it', async () => {
    server().onRequest((req) => ({ content: `got: ${req.body.messages.at(-1).content}` }));
    const { dir, work } = chatWorkspace('adk-editor-');
    const editor = join(dir, 'fake-editor.sh');
    // A stand-in editor: appends a line and notes whether it could see the API key.
    writeFileSync(editor, `#!/bin/sh\nprintf ' plus the editor (key: [%s])' "$OPENAI_API_KEY" >> "$1"\n`);
    chmodSync(editor, 0o755);
    startChat(tmux, 'editor', { dir, cwd: work, env: serverChatEnv(dir, server().url, { EDITOR: editor }) });
    await tmux.waitForScreen('editor', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('editor', 'my draft');
    await tmux.waitForScreen('editor', (s) => s.includes('› my draft'), 'the draft');
    tmux.keys('editor', 'C-g');
    await tmux.waitForScreen('editor', (s) => s.includes('› my draft plus the editor (key: [])'), 'the edited text in the box');
    tmux.keys('editor', 'Enter');
    await tmux.waitForScreen('editor', (s) => s.includes('got: my draft plus the editor'), 'the message sent');
    expect(server().chatRequests.at(-1)!.body.messages.at(-1).content).toBe('my draft plus the editor (key: [])');
  }, 60_000);
});
