import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemOf, useServer } from '../cli/helpers.js';
import { chatWorkspace, startChat, useTmux } from './tmux.js';

// Issue 18: the deep agent's todo list above the input while it works, in a real terminal.
const server = useServer();
const tmux = useTmux();

const PROMPT = '› Message, or / for commands';

describe('the todo panel (tmux)', () => {
  it('shows ☐/◐/☑ above the input while a deep agent works', async () => {
    server().onRequest((r) => {
      if (systemOf(r).startsWith('You are a sub-agent')) return { content: 'measured', delayMs: 2500 };
      const calls = r.body.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.function.name));
      const todos = (a: string, b: string, c: string) => ({
        todos: [
          { content: 'Read the code', status: a },
          { content: 'Measure it', activeForm: 'Measuring it', status: b },
          { content: 'Write the report', status: c },
        ],
      });
      if (!calls.includes('write_todos')) return { toolCalls: [{ name: 'write_todos', arguments: todos('completed', 'in_progress', 'pending') }] };
      if (!calls.includes('task')) return { toolCalls: [{ name: 'task', arguments: { subagent: 'general-purpose', description: 'measure it' } }] };
      return { content: 'Report: measured.' };
    });
    const { dir, work } = chatWorkspace('adk-repl-todos-');
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'demo-project', description: 'A project for the test.', scripts: { test: 'vitest', build: 'tsc' } }));
    writeFileSync(join(work, 'agents.yaml'), 'version: 1\nmodels:\n  default: { model: gpt-test, base_url: "${OPENAI_BASE_URL:-}" }\nagents:\n  lead: { type: deep, description: Leads. }\n');
    startChat(tmux, 'todos', { dir, cwd: work, env: { ADK_HOME: join(dir, 'home'), OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'test-key-123456' } });
    await tmux.waitForScreen('todos', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('todos', 'measure the code');
    tmux.keys('todos', 'Enter');
    const screen = await tmux.waitForScreen('todos', (s) => s.includes('Todos 1/3'), 'the todo panel');
    const lines = screen.split('\n');
    const at = lines.findIndex((l) => l.includes('Todos 1/3'));
    expect(lines.slice(at + 1, at + 4).map((l) => l.trim())).toEqual(['☑ Read the code', '◐ Measuring it', '☐ Write the report']);
    // The panel sits between the transcript and the input, not in the scrollback.
    expect(lines.slice(at).join('\n')).toContain('esc to cancel');
    await tmux.waitForScreen('todos', (s) => s.includes('Report: measured.') && s.includes(PROMPT), 'the end of the run');
    expect(tmux.capture('todos')).not.toContain('Todos 1/3');

    // /init: test/repl/custom-commands.e2e.test.ts (the model writes AGENTS.md when the team has file tools; else a starter file).
  }, 60_000);
});
