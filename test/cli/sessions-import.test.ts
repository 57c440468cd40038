import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectExit, serverEnv, sessionIdOf, tempDir, tempHome, useServer } from './helpers.js';

// Issue 44: trajectories in. A real Claude Code session file (lines of a public repository's recorded
// session, test/fixtures/imports/README.md) becomes an adk session that `adk resume` continues: the
// model is sent the imported history, every tool call answered, and what was left out is listed.
const server = useServer();
const CLAUDE = fileURLToPath(new URL('../fixtures/imports/claude-code-spotter.jsonl', import.meta.url));
const CODEX = fileURLToPath(new URL('../fixtures/imports/codex-rollout-codemie.jsonl', import.meta.url));
const GEMINI = fileURLToPath(new URL('../fixtures/imports/gemini-cli-session-codemie.json', import.meta.url));
const GEMINI_CHECKPOINT = fileURLToPath(new URL('../fixtures/imports/gemini-cli-checkpoint.json', import.meta.url));
type Sent = Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;

describe('adk sessions import', () => {
  it('a Claude Code session: imported, listed what was left out, and continued by adk resume', async () => {
    const cwd = tempDir('adk-import-');
    const env = serverEnv(server(), 'sk-import-key-000001', tempHome());
    const r = await expectExit(['sessions', 'import', CLAUDE, '--json'], 0, { env, cwd });
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ format: 'claude-code' });
    expect(report.unmapped).toEqual(expect.arrayContaining(['1 file-history-snapshot lines', '1 progress lines', '2 tool call(s) without a result (given one that says so)']));
    server().enqueue({ content: 'Continuing with spotter-dov.1.' });
    const resumed = await expectExit(['resume', report.imported, '--json', 'go on'], 0, { env, cwd });
    expect(resumed.lines.at(-1)).toMatchObject({ status: 'completed', output: 'Continuing with spotter-dov.1.' });
    const sent = server().chatRequests[0]!.body.messages as Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>; tool_call_id?: string }>;
    const firstReply = sent.find((m) => m.role === 'assistant')!;
    // The reply's three lines (text, thinking, two tool_use blocks under one message id) are one message.
    expect(firstReply.tool_calls!.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments).command])).toEqual([
      ['toolu_01UwLnYYWGBvukzh1QE6JpfM', 'Bash', 'bd show spotter-dov'],
      ['toolu_01EqSqHoE2fyTCuK5BJ3azkA', 'Bash', 'bd ready'],
    ]);
    const results = sent.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(['toolu_01EqSqHoE2fyTCuK5BJ3azkA', 'toolu_01UwLnYYWGBvukzh1QE6JpfM', 'toolu_019EkNmfE4exE11xktmWLjkX']);
    expect(String(results[0]!.content)).toContain('Ready work (8 issues with no blockers)');
    expect(String(results[1]!.content)).toContain('no result');
    expect(sent.filter((m) => m.role === 'user').map((m) => String(m.content))).toEqual([expect.stringContaining('Work on bead spotter-dov'), 'go on']);
  });

  it('a Codex rollout: its response items become the conversation (calls answered by call_id, apply_patch as {input}), Codex context left out, continued by adk resume', async () => {
    const cwd = tempDir('adk-import-');
    const env = serverEnv(server(), 'sk-import-key-000001', tempHome());
    const report = JSON.parse((await expectExit(['sessions', 'import', CODEX, '--json'], 0, { env, cwd })).stdout);
    expect(report).toMatchObject({ format: 'codex' });
    expect(report.unmapped).toEqual(expect.arrayContaining(['25 reasoning items (encrypted by the provider)', '3 web_search_call items', expect.stringMatching(/^\d+ event_msg lines$/), '1 Codex context messages (AGENTS.md, environment)', '1 Codex context messages (developer)', '1 session_meta lines']));
    server().enqueue({ content: 'The threshold is 90% now.' });
    // (a model whose window holds the whole session: with a smaller one adk would first compact it)
    await expectExit(['resume', report.imported, '--json', '--model', 'gpt-4.1', 'what changed?'], 0, { env, cwd });
    const sent = server().chatRequests[0]!.body.messages as Sent;
    const users = sent.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(users).toEqual(['show tools', "let's update the defailt context compart to 90 in env var", 'what changed?']);
    const calls = sent.flatMap((m) => m.tool_calls ?? []);
    expect(calls).toHaveLength(102);
    expect(calls[0]).toMatchObject({ id: 'call_Y2p6KmqwoTtpi6atpDPuxC5M', function: { name: 'exec_command' } });
    expect(JSON.parse(calls[0]!.function.arguments).cmd).toContain("sed -n '1,180p'");
    const patch = calls.find((c) => c.function.name === 'apply_patch')!;
    expect(JSON.parse(patch.function.arguments).input).toMatch(/^\*\*\* Begin Patch\n\*\*\* Update File: src\/agents\/plugins\/__tests__\/codemie-code-reasoning\.test\.ts/);
    // Each call answered right after it, by its own call_id.
    const results = sent.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(String(results[0]!.content)).toContain('Process running with session ID 48230');
    expect(String(sent.filter((m) => m.role === 'assistant').at(-1)!.content)).toContain('Implemented the default context compaction setting');
  });

  it('a gemini-cli session: messages, tool calls with their results and thoughts; continued by adk resume', async () => {
    const cwd = tempDir('adk-import-');
    const env = serverEnv(server(), 'sk-import-key-000001', tempHome());
    const report = JSON.parse((await expectExit(['sessions', 'import', GEMINI, '--json'], 0, { env, cwd })).stdout);
    expect(report).toMatchObject({ format: 'gemini-cli', unmapped: [] });
    server().enqueue({ content: 'hello.md has four lines.' });
    await expectExit(['resume', report.imported, '--json', 'how long is hello.md now?'], 0, { env, cwd });
    const sent = server().chatRequests[0]!.body.messages as Sent;
    expect(sent.filter((m) => m.role === 'user').map((m) => String(m.content)).slice(0, 3)).toEqual(['show tools', expect.stringContaining('expore repository and figure out issues'), 'create hello.md file']);
    const calls = sent.flatMap((m) => m.tool_calls ?? []);
    expect(calls.map((c) => c.function.name)).toEqual(expect.arrayContaining(['write_todos', 'delegate_to_agent', 'read_file', 'write_file']));
    expect(calls).toHaveLength(14);
    const results = sent.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(String(results.find((m) => m.tool_call_id === calls.find((c) => c.function.name === 'write_file')!.id)!.content)).toContain('Successfully created and wrote to');
  });

  // Issue 44: gemini-cli's `/chat save` checkpoint (its API history) was not read: "not a session file".
  it('a gemini-cli /chat save checkpoint: its history without gemini-cli’s context, calls paired by id, a cancelled call as an error; continued by adk resume', async () => {
    const cwd = tempDir('adk-import-');
    const env = serverEnv(server(), 'sk-import-key-000001', tempHome());
    const report = JSON.parse((await expectExit(['sessions', 'import', GEMINI_CHECKPOINT, '--json'], 0, { env, cwd })).stdout);
    expect(report).toMatchObject({ format: 'gemini-cli', messages: 6, unmapped: ['2 environment context messages (gemini-cli’s own)'] });
    server().enqueue({ content: 'Fixed.' });
    await expectExit(['resume', report.imported, '--json', 'yes, fix it'], 0, { env, cwd });
    const sent = server().chatRequests[0]!.body.messages as Sent;
    expect(sent.filter((m) => m.role === 'user').map((m) => String(m.content))).toEqual(['Why does the cart total ignore discounts?', 'yes, fix it']);
    const calls = sent.flatMap((m) => m.tool_calls ?? []);
    expect(calls.map((c) => [c.id, c.function.name])).toEqual([
      ['read_file-1764946800123-7d1c2a', 'read_file'],
      ['run_shell_command-1764946805456-91be0f', 'run_shell_command'],
    ]);
    const results = sent.filter((m) => m.role === 'tool');
    expect(results.map((m) => m.tool_call_id)).toEqual(calls.map((c) => c.id));
    expect(String(results[0]!.content)).toContain('export function total(items, discount)');
    expect(String(results[1]!.content)).toContain('User cancelled the operation');
    expect(String(sent.filter((m) => m.role === 'assistant').at(-1)!.content)).toContain('Shall I fix it?');
    // The bare-array form (older gemini-cli, `/chat share x.json`), calls without ids: paired by name in order.
    const legacy = join(cwd, 'shared.json');
    writeFileSync(legacy, JSON.stringify([
      { role: 'user', parts: [{ text: 'list files' }] },
      { role: 'model', parts: [{ functionCall: { name: 'list_directory', args: { path: '.' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'list_directory', response: { output: 'a.txt' } } }] },
      { role: 'model', parts: [{ text: 'One file: a.txt' }] },
    ]));
    const old = JSON.parse((await expectExit(['sessions', 'import', legacy, '--json'], 0, { env, cwd })).stdout);
    expect(old).toMatchObject({ format: 'gemini-cli', messages: 4, unmapped: [] });
  });

  it('an ATIF trajectory adk wrote comes back as the same conversation', async () => {
    const cwd = tempDir('adk-import-');
    const env = serverEnv(server(), 'sk-import-key-000001', tempHome());
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: 'echo hi' } }] }, { content: 'It printed hi.' });
    const first = await expectExit(['run', '--json', '--allow', 'shell', 'print hi'], 0, { env, cwd });
    const file = join(cwd, 'trajectory.json');
    await expectExit(['sessions', 'export', sessionIdOf(first), '--output', file], 0, { env, cwd });
    const imported = JSON.parse((await expectExit(['sessions', 'import', file, '--json'], 0, { env, cwd })).stdout);
    expect(imported).toMatchObject({ format: 'atif', messages: 4, unmapped: [] });
    server().reset();
    server().enqueue({ content: 'Yes.' });
    await expectExit(['resume', imported.imported, '--json', 'did it work?'], 0, { env, cwd });
    const roles = (server().chatRequests[0]!.body.messages as Array<{ role: string }>).map((m) => m.role).filter((r) => r !== 'system');
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
  });

  it('a file that is neither is a clear error', async () => {
    const cwd = tempDir('adk-import-');
    writeFileSync(join(cwd, 'notes.txt'), 'hello\n');
    const r = await expectExit(['sessions', 'import', join(cwd, 'notes.txt')], 2, { env: serverEnv(server(), 'sk-import-key-000001', tempHome()), cwd });
    expect(r.stderr).toContain('line 1 is not JSON: not a Claude Code session file');
  });
});
