import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelAgent, Runner, ScriptedChatModel, type AgentEvent, type Tool } from '../../src/core/index.js';
import { Hooks, hookMatches, parseHooks, runHookCommand, runHooks, type HooksConfig } from '../../src/core/middlewares/hooks/index.js';

const dir = () => mkdtempSync(join(tmpdir(), 'adk-hooks-'));
const pre = (command: string, matcher = 'shell', timeout?: number): HooksConfig => ({ PreToolUse: [{ matcher, hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }] });
const input = { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'shell', tool_input: { command: 'rm -rf build' } };

describe('hook runner', () => {
  it('exit 2 blocks with stderr as the reason', async () => {
    const r = await runHooks(pre('echo "no rm here" >&2; exit 2'), 'PreToolUse', 'shell', input, { cwd: dir() });
    expect(r.block).toBe('no rm here');
  });

  it('a JSON deny blocks with its reason; other exit codes only warn', async () => {
    const deny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"use trash instead"}}'`;
    expect((await runHooks(pre(deny), 'PreToolUse', 'shell', input, { cwd: dir() })).block).toBe('use trash instead');
    const warn = await runHooks(pre('echo oops >&2; exit 1'), 'PreToolUse', 'shell', input, { cwd: dir() });
    expect(warn.block).toBeUndefined();
    expect(warn.notices[0]).toContain('oops');
  });

  it('the hook reads the event on stdin and runs in the workspace', async () => {
    const cwd = dir();
    const r = await runHookCommand({ type: 'command', command: 'cat > seen.json; pwd' }, input, { cwd });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(cwd);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(join(cwd, 'seen.json'), 'utf8'))).toMatchObject({ tool_name: 'shell', tool_input: { command: 'rm -rf build' } });
  });

  it('a timeout kills the hook (and what it started)', async () => {
    const cwd = dir();
    const started = Date.now();
    const r = await runHookCommand({ type: 'command', command: 'sleep 30 & sleep 30; touch late', timeout: 0.5 }, input, { cwd });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(cwd, 'late'))).toBe(false);
  });

  it('the environment has no API keys or tokens', async () => {
    const env = { PATH: process.env.PATH, HOME: '/tmp', OPENAI_API_KEY: 'sk-secret-1', GITHUB_TOKEN: 'ghp_secret' };
    const r = await runHookCommand({ type: 'command', command: 'env' }, input, { cwd: dir(), env });
    expect(r.stdout).not.toContain('sk-secret-1');
    expect(r.stdout).not.toContain('ghp_secret');
    expect(r.stdout).toContain('ADK_PROJECT_DIR=');
  });

  it('matchers: names joined by |, regular expressions, * for all', () => {
    expect(hookMatches('shell|write_file', 'write_file')).toBe(true);
    expect(hookMatches('shell|write_file', 'shell_x')).toBe(false);
    expect(hookMatches('.*_file', 'read_file')).toBe(true);
    expect(hookMatches('*', 'anything')).toBe(true);
    expect(hookMatches(undefined, 'x')).toBe(true);
  });

  it('parseHooks reports unknown events and bad entries at their key path', () => {
    const { hooks, problems } = parseHooks({ PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: 'x' }] }], PreTool: [], Stop: [{ hooks: [{ type: 'cmd', command: 'y' }] }] });
    expect(hooks.PreToolUse?.[0].hooks[0].command).toBe('x');
    expect(problems.map((p) => p.path.join('.'))).toEqual(['PreTool', 'Stop.0.hooks.0.type']);
  });
});

const shell: Tool<{ command: string }> = {
  name: 'shell',
  description: 'Run a command.',
  parameters: z.object({ command: z.string() }),
  execute: ({ command }) => `ran: ${command}`,
};

async function run(hooks: HooksConfig, approval: string[] = []) {
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'shell', arguments: { command: 'rm -rf build' }, id: 'c1' }] }, { content: 'ok' }]);
  const h = new Hooks({ hooks, cwd: dir(), sessionId: () => 'sess-1' });
  const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [shell], approval, middlewares: [h.middleware()] });
  const events: AgentEvent[] = [];
  for await (const e of new Runner({ agent }).query('clean up')) events.push(e);
  return { model, events };
}

const toolResult = (model: ScriptedChatModel) => model.calls[1]?.messages.find((m) => m.role === 'tool')?.content ?? '';

describe('hooks middleware', () => {
  it('a PreToolUse block is the call result the model reads, before any approval is asked', async () => {
    const { model, events } = await run(pre('echo "rm is not allowed, use git clean" >&2; exit 2'), ['shell']);
    expect(toolResult(model)).toContain('rm is not allowed, use git clean');
    expect(events.some((e) => e.action?.interrupted)).toBe(false);
  });

  it('updatedInput rewrites the arguments the tool gets', async () => {
    const { model } = await run(pre(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo safe"}}}'`));
    expect(toolResult(model)).toBe('ran: echo safe');
  });

  it('UserPromptSubmit adds context, PostToolUse feeds its reason to the model', async () => {
    const hooks: HooksConfig = {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "branch: main"' }] }],
      PostToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: `echo '{"decision":"block","reason":"lint failed"}'` }] }],
    };
    const { model } = await run(hooks);
    expect(model.calls[0].messages.some((m) => m.content.includes('branch: main'))).toBe(true);
    expect(toolResult(model)).toContain('lint failed');
  });

  // Issue 48 item 2: hooks copied from Claude Code never fired (matcher `Bash`), and a guard testing
  // `tool_input.file_path` saw nothing. Claude's tool names match, and its field names are there too.
  it("Claude Code's matchers (Bash, Edit|MultiEdit|Write) fire, and tool_input carries its field names", async () => {
    const { model, events } = await run(pre('echo "blocked by a Claude hook" >&2; exit 2', 'Bash'), ['shell']);
    expect(toolResult(model)).toContain('blocked by a Claude hook');
    expect(events.some((e) => e.action?.interrupted)).toBe(false);
    const cwd = dir();
    writeFileSync(join(cwd, 'a.txt'), 'alpha\n');
    const { editFileTool } = await import('../../src/core/tools/builtin/index.js');
    // A guard as Claude Code's docs write one: it reads tool_input.file_path and old_string.
    const guard = `cat > seen.json; node -e 'const d = JSON.parse(require("fs").readFileSync("seen.json", "utf8")); if (d.tool_input.file_path.endsWith(".txt") && d.tool_input.old_string === "alpha") { console.error("no .txt edits"); process.exit(2); }'`;
    const h = new Hooks({ hooks: pre(guard, 'Edit|MultiEdit|Write'), cwd, sessionId: () => 'sess-1' });
    const edits = new ScriptedChatModel([{ toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt', old: 'alpha', new: 'beta' } }] }, { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model: edits, tools: [editFileTool(cwd)], middlewares: [h.middleware()] });
    for await (const _ of new Runner({ agent }).query('edit')) void _;
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(join(cwd, 'seen.json'), 'utf8')).tool_input).toEqual({ path: 'a.txt', old: 'alpha', new: 'beta', file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' });
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it("updatedInput in Claude Code's field names reaches the tool in adk's", async () => {
    const cwd = dir();
    writeFileSync(join(cwd, 'a.txt'), 'alpha\n');
    writeFileSync(join(cwd, 'b.txt'), 'alpha\n');
    const { editFileTool } = await import('../../src/core/tools/builtin/index.js');
    const h = new Hooks({ hooks: pre(`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"b.txt","new_string":"gamma"}}}'`, 'Edit'), cwd, sessionId: () => 'sess-1' });
    const edits = new ScriptedChatModel([{ toolCalls: [{ id: 'e1', name: 'edit_file', arguments: { path: 'a.txt', old: 'alpha', new: 'beta' } }] }, { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: '', model: edits, tools: [editFileTool(cwd)], middlewares: [h.middleware()] });
    for await (const _ of new Runner({ agent }).query('edit')) void _;
    const { readFileSync } = await import('node:fs');
    expect([readFileSync(join(cwd, 'a.txt'), 'utf8'), readFileSync(join(cwd, 'b.txt'), 'utf8')]).toEqual(['alpha\n', 'gamma\n']);
  });

  it('a UserPromptSubmit block ends the turn with the reason, before any model call', async () => {
    const model = new ScriptedChatModel([{ content: 'never' }]);
    const h = new Hooks({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "no secrets in prompts" >&2; exit 2' }] }] }, cwd: dir() });
    const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [shell], middlewares: [h.middleware()] });
    const events: AgentEvent[] = [];
    for await (const e of new Runner({ agent }).query('my password is hunter2')) events.push(e);
    expect(model.calls).toHaveLength(0);
    expect(events.map((e) => e.error?.message ?? '').join('')).toContain('no secrets in prompts');
  });
});
