import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { assistantEvent, eventsOf, KEY, manualStream, streamEvent, tick, toolEvent } from './helpers.js';

// A real tty turns \n into \r\n (onlcr): convertEol does the same.
// Ink writes plain final frames when it believes it runs in CI; this test needs the real terminal path.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
const { render } = await import('ink');
const { ChatApp } = await import('../../src/ui/app/ChatApp.js');
const { Terminal } = (await import('@xterm/headless')).default as typeof import('@xterm/headless');

const COLS = 60;
const ROWS = 14;

/** A TTY as Ink sees it; everything written also goes into a headless terminal emulator. */
class FakeTty extends EventEmitter {
  isTTY = true;
  columns = COLS;
  rows = ROWS;
  writes: string[] = [];
  term = new Terminal({ cols: COLS, rows: ROWS, scrollback: 5000, allowProposedApi: true, convertEol: true });
  write = (s: string) => {
    this.writes.push(s);
    this.term.write(s);
    return true;
  };
  /** Every line ever shown, scrollback included. */
  async lines(): Promise<string[]> {
    await new Promise<void>((r) => this.term.write('', r));
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < b.length; i++) out.push(b.getLine(i)!.translateToString(true));
    return out;
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write = (s: string) => {
    this.data = s;
    this.emit('readable');
  };
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** Ink on the fake terminal as the real app runs it: interactive, Ctrl-C left to the app. */
const ttyOptions = (stdout: FakeTty, stdin: FakeStdin) => ({
  stdout: stdout as never,
  stdin: stdin as never,
  stderr: new FakeTty() as never,
  debug: false,
  exitOnCtrlC: false,
  patchConsole: false,
});

describe('ChatApp in a terminal', () => {
  it('streams a reply much taller than the screen without ever clearing it, each line kept once in scrollback', async () => {
    const stdout = new FakeTty();
    const stdin = new FakeStdin();
    const s = manualStream();
    const runTurn = (): AsyncIterable<AgentEvent> => eventsOf(streamEvent('writer', ['writer'], s.stream));
    const app = render(<ChatApp runTurn={runTurn} answerInterrupts={() => eventsOf()} onExit={() => {}} model="demo" />, ttyOptions(stdout, stdin));
    await tick(50);
    stdin.write('write a lot');
    await tick(30);
    stdin.write(KEY.enter);
    await tick(50);

    // Paragraphs, a long code block still being written, then the rest: far taller than 14 rows.
    for (let p = 1; p <= 30; p++) {
      for (const word of `Paragraph ${p} says something.`.split(' ')) {
        s.push(`${word} `);
        await tick(2);
      }
      s.push('\n\n');
      if (p === 15) {
        s.push('```\n');
        for (let l = 1; l <= 40; l++) {
          s.push(`code line ${l}\n`);
          await tick(2);
        }
        s.push('```\n\n');
      }
    }
    s.close();
    await tick(120);

    const all = stdout.writes.join('');
    expect(all).not.toContain('\u001B[2J');
    expect(all).not.toContain('\u001B[3J');

    const lines = await stdout.lines();
    expect(stdout.writes).toContain('\u001B[?2004h');
    expect(lines.filter((l) => l.includes("› write a lot"))).toHaveLength(1);
    for (let p = 1; p <= 30; p++) expect(lines.filter((l) => l.includes(`Paragraph ${p} says`))).toHaveLength(1);
    for (let l = 1; l <= 40; l++) expect(lines.filter((x) => x.trim() === `code line ${l}`)).toHaveLength(1);
    // The input box is back at the bottom.
    expect(lines.some((l) => l.includes('Message, or / for commands'))).toBe(true);
    app.unmount();
    expect(stdout.writes).toContain('\u001B[?2004l');
  });

  it('fits an approval with long arguments on a small screen without clearing it', async () => {
    const stdout = new FakeTty();
    const stdin = new FakeStdin();
    const args = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`, `value ${i}`]));
    const s = manualStream();
    const runTurn = (): AsyncIterable<AgentEvent> =>
      eventsOf(
        streamEvent('coder', ['coder'], s.stream),
        assistantEvent('coder', ['coder'], { role: 'assistant', content: '', toolCalls: [{ id: 'c1', function: { name: 'write_file', arguments: JSON.stringify(args) } }] }),
        {
          agentName: 'coder',
          runPath: ['coder'],
          action: {
            interrupted: {
              contexts: [{ id: 'i1', address: 'agent:coder;tool:write_file:c1', info: { kind: 'approval', message: 'Allow write_file?', tool: 'write_file', arguments: args } }],
              signal: {} as never,
            },
          },
        },
      );
    let answers: Record<string, unknown> | undefined;
    const answerInterrupts = (a: Record<string, unknown>) => {
      answers = a;
      return eventsOf(toolEvent('coder', ['coder'], { role: 'tool', content: 'written', toolCallId: 'c1', toolName: 'write_file' }));
    };
    const app = render(<ChatApp runTurn={runTurn} answerInterrupts={answerInterrupts} onExit={() => {}} promptArmMs={0} />, ttyOptions(stdout, stdin));
    await tick(50);
    stdin.write('save it');
    await tick(30);
    stdin.write(KEY.enter);
    await tick(30);
    for (let i = 1; i <= 30; i++) {
      s.push(`thinking line ${i}\n`);
      await tick(2);
    }
    s.close();
    await tick(120);
    const screen = await stdout.lines();
    expect(screen.some((l) => l.includes('coder wants to run write_file'))).toBe(true);
    expect(screen.some((l) => l.includes('[y] approve once'))).toBe(true);
    stdin.write('y');
    await tick(120);
    expect(answers).toEqual({ i1: { approved: true } });
    const all = stdout.writes.join('');
    expect(all).not.toContain('\u001B[2J');
    expect(all).not.toContain('\u001B[3J');
    const lines = await stdout.lines();
    expect(lines.some((l) => l.includes('⎿ written'))).toBe(true);
    for (let i = 1; i <= 30; i++) expect(lines.filter((l) => l.trim() === `thinking line ${i}`)).toHaveLength(1);
    app.unmount();
  });
});
