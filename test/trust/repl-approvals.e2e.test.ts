import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ADK_BIN } from '../support/cli.js';
import { useServer } from '../cli/helpers.js';
import { sleep, tempDir } from '../repl/helpers.js';
import { useTmux } from '../repl/tmux.js';

// Issue 11, items 6, 7 and 8 in a real terminal: type-ahead never approves, model text never
// drives the terminal, and "always allow" belongs to the session that granted it.
const server = useServer();
const tmux = useTmux();

const PROMPT = '› Message, or / for commands';
let dir: string;
beforeEach(() => {
  dir = tempDir('adk-repl-trust-');
});

/** `adk chat` (or any adk command) in a tmux pane, on the bundled assistant team, against the local server. */
function start(pane: string, args: string, env: Record<string, string> = {}): { work: string; raw: string } {
  const work = join(dir, 'work');
  const raw = join(dir, `${pane}.raw`);
  const script = join(dir, `${pane}.sh`);
  const exports = Object.entries({ ADK_HOME: join(dir, 'home'), OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'test-key-123456', ADK_MODEL: 'gpt-test', ...env })
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n');
  writeFileSync(script, `unset ADK_STORE\n${exports}\nmkdir -p '${work}' && cd '${work}'\nnode '${ADK_BIN}' ${args}\necho adk-exit-$?\nexec sh\n`);
  tmux.start(pane, `sh '${script}'`, 100, 30, { TERM: 'xterm-256color' });
  // Every byte adk writes to the terminal, as the terminal receives it.
  tmux.run('pipe-pane', '-o', '-t', pane, `cat >> '${raw}'`);
  return { work, raw };
}

/** The model: "run N" asks for `echo N >> log.txt`; a tool result is answered "done". */
function scriptRuns(): void {
  server().onRequest((req) => {
    const last = req.body.messages.at(-1);
    if (last.role === 'tool') return { content: `done: ${String(last.content).split('\n')[0]}` };
    const n = /run (\w+)/.exec(last.content)?.[1];
    if (n) return { toolCalls: [{ name: 'shell', arguments: { command: `echo ${n} >> log.txt` } }], delayMs: 800 };
    return { content: 'ok' };
  });
}

const logOf = (work: string) => (existsSync(join(work, 'log.txt')) ? readFileSync(join(work, 'log.txt'), 'utf8').split('\n').filter(Boolean) : []);

describe('approvals in the REPL (tmux)', () => {
  it('type-ahead never answers an approval, and the typed text is kept in the input box (item 6)', async () => {
    scriptRuns();
    const { work } = start('typeahead', 'chat', { ADK_PROMPT_ARM_MS: '3000' });
    await tmux.waitForScreen('typeahead', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('typeahead', 'please run one');
    tmux.keys('typeahead', 'Enter');
    // The person keeps typing while the model works (the reply takes 800 ms)…
    await tmux.waitForScreen('typeahead', (s) => s.includes('esc to cancel'), 'the run to start');
    tmux.type('typeahead', 'next ');
    await tmux.waitForScreen('typeahead', (s) => s.includes('wants to run shell'), 'the approval box');
    // …and goes on typing into the box that just opened: `a`, `y`, Enter are not answers.
    tmux.type('typeahead', 'ay');
    tmux.keys('typeahead', 'Enter');
    await sleep(500);
    let screen = tmux.capture('typeahead');
    expect(screen).toContain('wants to run shell');
    expect(screen).not.toContain('approved');
    expect(logOf(work)).toEqual([]);
    // Once the box has been readable, with no key typed, for the whole arming time, keys answer it.
    await sleep(3200);
    tmux.keys('typeahead', 'n');
    await tmux.waitForScreen('typeahead', (s) => s.includes('Why not?'), 'the reason field');
    tmux.keys('typeahead', 'Enter');
    screen = await tmux.waitForScreen('typeahead', (s) => s.includes('done:') && s.includes('› next ay'), 'the typed-ahead text back in the input box');
    expect(screen).toContain('⊘ rejected shell: echo one >> log.txt');
    expect(logOf(work)).toEqual([]);
  }, 60_000);

  it('"always allow" takes a second key, lasts for the session and its resume, and not for /new (item 8)', async () => {
    scriptRuns();
    const pane = 'always';
    const { work } = start(pane, 'chat', { ADK_PROMPT_ARM_MS: '0' });
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the prompt');
    const id = /session (\w{8})/.exec(tmux.capture(pane))![1];
    const ask = async (n: string) => {
      tmux.type(pane, `run ${n}`);
      tmux.keys(pane, 'Enter');
    };
    await ask('1');
    await tmux.waitForScreen(pane, (s) => s.includes('wants to run shell'), 'the approval box');
    tmux.keys(pane, 'a');
    await tmux.waitForScreen(pane, (s) => s.includes('without asking for the rest of this session'), 'the confirmation');
    expect(logOf(work)).toEqual([]);
    tmux.keys(pane, 'y');
    await tmux.waitForScreen(pane, (s) => s.includes('done: 1') || s.includes('done:'), 'the first run');
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the prompt');
    await ask('2');
    await tmux.waitForScreen(pane, () => logOf(work).length === 2, 'the second command, unasked');
    expect(tmux.capture(pane).split('wants to run shell').length - 1).toBe(0);

    // A new session asks again.
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the prompt');
    tmux.type(pane, '/new');
    tmux.keys(pane, 'Enter');
    await tmux.waitForScreen(pane, (s) => s.includes('New session'), 'the new session');
    await ask('3');
    await tmux.waitForScreen(pane, (s) => s.includes('wants to run shell'), 'the approval box in the new session');
    tmux.keys(pane, 'y');
    await tmux.waitForScreen(pane, () => logOf(work).length === 3, 'the third command');
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the prompt');
    tmux.keys(pane, 'C-c');
    tmux.keys(pane, 'C-c');
    await tmux.waitForScreen(pane, (s) => s.includes('adk-exit-0'), 'adk to exit');

    // Resuming the granting session keeps its grant.
    tmux.type(pane, `node '${ADK_BIN}' resume ${id}`);
    tmux.keys(pane, 'Enter');
    await tmux.waitForScreen(pane, (s) => s.includes(`Resumed session ${id}`) && s.includes(PROMPT), 'the resumed session');
    await ask('4');
    await tmux.waitForScreen(pane, () => logOf(work).length === 4, 'the fourth command, unasked');
    expect(logOf(work)).toEqual(['1', '2', '3', '4']);
    const sinceResume = tmux.capture(pane, true).split(`Resumed session ${id}`).at(-1)!;
    expect(sinceResume).not.toContain('wants to run shell');
  }, 90_000);

  it('model text cannot retitle the terminal, write the clipboard or ring the bell (item 7)', async () => {
    const ESC = '\u001b';
    server().onRequest(() => ({ content: `${ESC}]0;pwned-title\u0007Hello ${ESC}]52;c;cHduZWQ=\u0007there\u0007 ${ESC}[2Jfriend` }));
    const pane = 'title';
    const { raw } = start(pane, 'chat');
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the prompt');
    const title = tmux.display(pane, '#{pane_title}');
    tmux.type(pane, 'say hi');
    tmux.keys(pane, 'Enter');
    // The sequences are shown as inert text (␛]0;…␇), never obeyed.
    await tmux.waitForScreen(pane, (s) => s.includes('␛]0;pwned-title␇Hello') && s.includes('friend') && s.includes(PROMPT), 'the reply');
    expect(tmux.display(pane, '#{pane_title}')).toBe(title);
    const bytes = readFileSync(raw, 'utf8');
    expect(bytes).not.toContain(`${ESC}]0;pwned`);
    expect(bytes).not.toContain(`${ESC}]52`);
    expect(bytes).not.toContain('\u0007');
    expect(bytes).not.toContain(`${ESC}[2J`);
  }, 60_000);

  it("adk chat in an untrusted folder shows what its agents.yaml would run and asks once; no runs nothing (item 2)", async () => {
    const pane = 'trust';
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'tool.js'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./imported.txt', import.meta.url), 'x');\nexport default { name: 'noop', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => 'ok' };\n`);
    writeFileSync(join(work, 'agents.yaml'), `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Be brief., tools: [{ module: ./tool.js }] }\n`);
    start(pane, 'chat');
    await tmux.waitForScreen(pane, (s) => s.includes("Do you trust this folder's agents file?") && s.includes('imports module ./tool.js'), 'the trust prompt');
    expect(existsSync(join(work, 'imported.txt'))).toBe(false);
    await sleep(500);
    tmux.keys(pane, 'n');
    await tmux.waitForScreen(pane, (s) => s.includes('not trusted') && s.includes('adk-exit-2'), 'adk to refuse');
    expect(existsSync(join(work, 'imported.txt'))).toBe(false);

    tmux.type(pane, `node '${ADK_BIN}' chat`);
    tmux.keys(pane, 'Enter');
    await tmux.waitForScreen(pane, (s) => s.split("Do you trust this folder's agents file?").length === 3, 'the trust prompt again');
    await sleep(500);
    tmux.keys(pane, 'y');
    await tmux.waitForScreen(pane, (s) => s.includes(PROMPT), 'the REPL on the trusted team');
    expect(existsSync(join(work, 'imported.txt'))).toBe(true);
    expect(readFileSync(join(dir, 'home', 'trusted-folders.json'), 'utf8')).toContain(join(work, 'agents.yaml'));
  }, 60_000);
});
