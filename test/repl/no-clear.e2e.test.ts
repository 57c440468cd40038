import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 1: once the live area is taller than the screen Ink clears the terminal (and its
// scrollback) on every keystroke. Driven in a real tmux pane with its raw output captured.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

function chat(name: string, size: [number, number], agentsYaml?: string) {
  const { dir, work } = chatWorkspace(`adk-noclear-${name}-`);
  if (agentsYaml) writeFileSync(join(work, 'agents.yaml'), agentsYaml);
  const raw = join(dir, 'raw.out');
  startChat(tmux, name, { dir, cwd: work, size, raw, env: serverChatEnv(dir, server().url) });
  return { raw: () => readFileSync(raw, 'latin1') };
}

/** Presses ↓ until `text` is on the screen (keys sent before a prompt is armed are not answers). */
async function scrollUntil(target: string, text: string, key = 'Down'): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (tmux.capture(target).includes(text)) return;
    tmux.keys(target, key);
    await sleep(20);
  }
  await tmux.waitForScreen(target, (s) => s.includes(text), text);
}

describe('the REPL never clears the terminal (tmux, raw output)', () => {
  it('a 3.3 KB single line at 100×20, then four keys: no clear, the end of the line and the cursor stay in view', async () => {
    const pane = chat('tallline', [100, 20]);
    await tmux.waitForScreen('tallline', (s) => s.includes(PROMPT), 'the prompt');
    const line = Array.from({ length: 330 }, (_, i) => `w${String(i).padStart(3, '0')}xxxxx`).join(' ').slice(0, 3300);
    tmux.type('tallline', line);
    await sleep(300);
    for (const k of ['a', 'b', 'c', 'd']) {
      tmux.type('tallline', k);
      await sleep(100);
    }
    const screen = await tmux.waitForScreen('tallline', (s) => s.includes('abcd'), 'the typed keys at the end of the line');
    expect(clearsIn(pane.raw())).toBe(0);
    expect(screen).toMatch(/↑ \d+ more rows/);
  }, 60_000);

  it('28 lines typed with Ctrl-J at 100×20: no clear', async () => {
    const pane = chat('tallinput', [100, 20]);
    await tmux.waitForScreen('tallinput', (s) => s.includes(PROMPT), 'the prompt');
    for (let i = 1; i <= 28; i++) {
      tmux.type('tallinput', `line ${i}`);
      tmux.keys('tallinput', 'C-j');
    }
    tmux.type('tallinput', 'last');
    // Under load the terminal may hand several typed lines over in one read, which the box folds
    // like a paste: either way the input ends up whole and the screen is not cleared.
    await tmux.waitForScreen('tallinput', (s) => s.includes('last') || /\[Pasted text #\d+ \+\d+ lines\]/.test(s), 'the last line');
    await sleep(300);
    expect(clearsIn(pane.raw())).toBe(0);
  }, 60_000);
});

describe('tall prompts (tmux, raw output)', () => {
  it('a shell approval with a 60-line command at 100×20: the command is shown in part, no clear, and it can be approved', async () => {
    const command = Array.from({ length: 60 }, (_, i) => `echo step-${i + 1}`).join('\n');
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: `ran: ${String(last.content).split('\n').length} lines` };
      return { toolCalls: [{ name: 'shell', arguments: { command } }] };
    });
    const pane = chat('tallapproval', [100, 20]);
    await tmux.waitForScreen('tallapproval', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('tallapproval', 'run the steps');
    tmux.keys('tallapproval', 'Enter');
    const screen = await tmux.waitForScreen('tallapproval', (s) => /approve once/i.test(s) && s.includes('echo step-1'), 'the approval box');
    // ↑/↓ choose in the approval menu (issue 32); PgUp/PgDn read the arguments.
    expect(screen).toMatch(/rows 1–\d+ of 6\d · PgUp\/PgDn to read the rest/);
    expect(screen).not.toContain('\\n');
    await sleep(500);
    // Every row of what is approved can be read: scroll to the last one.
    await scrollUntil('tallapproval', 'echo step-60', 'NPage');
    tmux.keys('tallapproval', 'y');
    await tmux.waitForScreen('tallapproval', (s) => s.includes('ran: '), 'the answer after approving', 30_000);
    expect(clearsIn(pane.raw())).toBe(0);
  }, 60_000);
});

describe('a tall plan (tmux, raw output)', () => {
  it('a 60-step plan to review at 100×30: shown in part, scrolls, feedback typed under it; no clear', async () => {
    const steps = Array.from({ length: 60 }, (_, i) => `step ${i + 1}: look into part ${i + 1} of the question`);
    server().onRequest((req) => {
      const tools = (req.body.tools ?? []).map((t: any) => t.function.name);
      if (tools.includes('plan') && !tools.includes('respond')) return { toolCalls: [{ name: 'plan', arguments: { steps } }] };
      if (tools.includes('respond')) return { toolCalls: [{ name: 'respond', arguments: { response: 'All done.' } }] };
      return { content: 'did it' };
    });
    const yaml = 'version: 1\ndefault: research\nagents:\n  research:\n    type: plan_execute\n    description: Plans, then works.\n    planner: { review: true }\n';
    const pane = chat('tallplan', [100, 30], yaml);
    await tmux.waitForScreen('tallplan', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('tallplan', 'research it');
    tmux.keys('tallplan', 'Enter');
    const screen = await tmux.waitForScreen('tallplan', (s) => s.includes('proposes a plan') && s.includes('step 1:'), 'the plan review');
    expect(screen).toMatch(/rows 1–\d+ of 60/);
    await sleep(500);
    await scrollUntil('tallplan', 'step 60:');
    tmux.type('tallplan', 'f');
    await sleep(200);
    tmux.type('tallplan', 'please merge steps 3 and 4, and keep the rest as they are for now');
    await tmux.waitForScreen('tallplan', (s) => s.includes('keep the rest'), 'the feedback being typed');
    expect(clearsIn(pane.raw())).toBe(0);
  }, 60_000);
});

describe('a small terminal (tmux, raw output)', () => {
  it('at 40×12 the approval box shows the command being approved; no clear', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'ran it' };
      return { toolCalls: [{ name: 'shell', arguments: { command: 'touch small-screen.txt' } }] };
    });
    const pane = chat('small', [40, 12]);
    await tmux.waitForScreen('small', (s) => s.includes('› '), 'the prompt');
    tmux.type('small', 'touch it');
    tmux.keys('small', 'Enter');
    const screen = await tmux.waitForScreen('small', (s) => /approve/i.test(s), 'the approval box');
    expect(screen).toContain('touch small-screen.txt');
    await sleep(500);
    tmux.keys('small', 'y');
    await tmux.waitForScreen('small', (s) => s.includes('ran it'), 'the answer', 30_000);
    expect(clearsIn(pane.raw())).toBe(0);
  }, 60_000);
});
