import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverEnv, tempHome, textOf, toolMessagesOf, useServer, writeAgentsFile } from '../cli/helpers.js';
import { TestEditor } from '../support/acp-editor.js';
import { startMcpHttpServer } from '../support/mcp-http-server.js';
import { runCli } from '../support/cli.js';

// Issue 31: `adk acp` driven as an editor drives it, through the ACP SDK's own client side.
const server = useServer();

const AGENTS = `version: 1
default: coder
agents:
  coder:
    description: A test agent that edits files and runs commands.
    instruction: You are a careful test agent.
    tools: [read_file, write_file, edit_file, shell, ask_user]
    approval: [write_file, edit_file, shell]
`;

let dir: string;
let home: string;
let editors: TestEditor[] = [];
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-acp-ws-')));
  home = tempHome();
  writeAgentsFile(dir, AGENTS);
  // The folder's agents.yaml has no powers (no code, no keys): it runs untrusted, as in `adk chat`.
});
afterEach(async () => {
  await Promise.all(editors.map((e) => e.close()));
  editors = [];
});

function editor(opts: ConstructorParameters<typeof TestEditor>[0] = {}): TestEditor {
  const e = new TestEditor({ cwd: dir, env: { ...serverEnv(server(), 'test-key-123456', home), ADK_SHELL_SANDBOX: 'off' }, ...opts });
  editors.push(e);
  return e;
}

async function newSession(e: TestEditor) {
  await e.initialize();
  return e.agent.request('session/new', { cwd: dir, mcpServers: [] });
}

describe('adk acp', () => {
  it('initializes with honest capabilities, streams text and a tool call with a diff, and asks before the write', async () => {
    server().enqueue(
      { content: 'I will create the file.', toolCalls: [{ id: 'call_w1', name: 'write_file', arguments: { path: 'hello.txt', content: 'hello from adk\n' } }] },
      { content: 'Created hello.txt.' },
    );
    const e = editor();
    const init = await e.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ mcpCapabilities: { http: true, sse: true }, loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, sessionCapabilities: { list: {} } });
    expect(init.agentInfo).toMatchObject({ name: 'adk' });
    const { sessionId, modes, configOptions } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(modes).toMatchObject({ currentModeId: 'ask', availableModes: [{ id: 'ask' }, { id: 'auto-edit' }, { id: 'plan' }] });
    expect(configOptions?.map((o) => o.id)).toEqual(['mode', 'model']);

    e.answers.push('allow_once');
    const res = await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'make hello.txt' }] });
    expect(res.stopReason).toBe('end_turn');
    expect(e.text(sessionId)).toBe('I will create the file.Created hello.txt.');
    const [call] = e.of('tool_call', sessionId);
    expect(call).toMatchObject({ toolCallId: 'call_w1', title: 'Write hello.txt', kind: 'edit', locations: [{ path: join(dir, 'hello.txt') }], rawInput: { path: 'hello.txt' } });
    expect(call.content).toEqual([{ type: 'diff', path: join(dir, 'hello.txt'), oldText: null, newText: 'hello from adk\n' }]);
    // Asked before it ran, with the diff and the four choices.
    expect(e.permissions).toHaveLength(1);
    expect(e.permissions[0]!.toolCall).toMatchObject({ toolCallId: 'call_w1', kind: 'edit', content: expect.arrayContaining([{ type: 'diff', path: join(dir, 'hello.txt'), oldText: null, newText: 'hello from adk\n' }]) });
    expect(e.permissions[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello from adk\n');
    expect(e.of('tool_call_update', sessionId).at(-1)).toMatchObject({ toolCallId: 'call_w1', status: 'completed' });
    // The editor learns which commands it can offer.
    expect(e.of('available_commands_update', sessionId)[0]?.availableCommands.map((c) => c.name)).toEqual(expect.arrayContaining(['compact', 'clear']));
    // stdout carried protocol messages only.
    for (const line of e.stdout.split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('allow always: the next call of that tool runs without asking; reject tells the model', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_a', name: 'write_file', arguments: { path: 'a.txt', content: 'a' } }] },
      { content: 'first done' },
      { toolCalls: [{ id: 'call_b', name: 'write_file', arguments: { path: 'b.txt', content: 'b' } }] },
      { content: 'second done' },
      { toolCalls: [{ id: 'call_c', name: 'shell', arguments: { command: 'echo should-not-run > ran.txt' } }] },
      { content: 'understood' },
    );
    const e = editor();
    const { sessionId } = await newSession(e);
    e.answers.push('allow_always');
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write a' }] });
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write b' }] })).toEqual({ stopReason: 'end_turn' });
    expect(e.permissions).toHaveLength(1);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('b');

    e.answers.push('reject_once');
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run it' }] })).toEqual({ stopReason: 'end_turn' });
    expect(e.permissions).toHaveLength(2);
    expect(existsSync(join(dir, 'ran.txt'))).toBe(false);
    expect(toolMessagesOf(server().chatRequests.at(-1)!).at(-1).content).toMatch(/rejected/);
    expect(e.of('tool_call_update', sessionId).at(-1)).toMatchObject({ toolCallId: 'call_c', status: 'failed' });
  });

  it('cancel stops a streaming turn at once and saves it as cancelled; session/load in a new process replays it', async () => {
    server().enqueue({ content: 'first answer' }, { content: 'x'.repeat(4000), chunkSize: 2, chunkDelayMs: 5 });
    const e = editor();
    const { sessionId } = await newSession(e);
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say something' }] });
    const prompt = e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'now a long one' }] });
    const deadline = Date.now() + 10_000;
    while (!e.text(sessionId).includes('xxxx') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const asked = Date.now();
    await e.agent.notify('session/cancel', { sessionId });
    expect(await prompt).toEqual({ stopReason: 'cancelled' });
    expect(Date.now() - asked).toBeLessThan(1000);
    expect(await e.close()).toBe(0);

    const shown = await runCli(['sessions', 'show', sessionId, '--json'], { env: { ADK_HOME: home } });
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: sessionId, status: 'cancelled' });

    const again = editor();
    await again.initialize();
    await again.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] });
    const replay = again.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
    expect(replay.slice(0, 3)).toEqual(['user_message_chunk', 'agent_message_chunk', 'user_message_chunk']);
    expect(again.of('user_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''))).toEqual(['say something', 'now a long one']);
    expect(again.text(sessionId)).toMatch(/^first answer/);
    // And it goes on: the model sees the earlier turns.
    server().enqueue({ content: 'continued' });
    expect(await again.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] })).toEqual({ stopReason: 'end_turn' });
    expect(textOf(server().chatRequests.at(-1)!)).toContain('say something');
  });

  it('reads the editor’s buffers (verified paths), writes through adk, and runs unsandboxed commands in its terminal when it offers them', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'on disk\n');
    server().enqueue(
      { toolCalls: [{ id: 'call_r', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'call_e', name: 'edit_file', arguments: { path: 'notes.txt', old: 'on disk', new: 'edited on disk' } }] },
      { toolCalls: [{ id: 'call_s', name: 'shell', arguments: { command: 'echo from-terminal-$((6*7))' } }] },
      { content: 'all done' },
    );
    const buffers = new Map([[file, 'unsaved buffer\n']]);
    const e = editor({ capabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, buffers });
    const { sessionId } = await newSession(e);
    e.answers.push('allow_once', 'allow_once');
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'edit and run' }] })).toEqual({ stopReason: 'end_turn' });
    // The model read the editor's unsaved buffer, not the disk.
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toContain('unsaved buffer');
    // The edit was written by adk itself (verified descriptors), not through the editor's by-path write.
    expect(e.fsWrites).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('edited on disk\n');
    expect(e.terminals).toEqual([{ command: '/bin/sh', args: ['-c', 'echo from-terminal-$((6*7))'] }]);
    expect(e.of('tool_call_update', sessionId).some((u) => u.toolCallId === 'call_s' && u.content?.some((c) => c.type === 'terminal'))).toBe(true);
    expect(toolMessagesOf(server().chatRequests[3]!).at(-1).content).toContain('from-terminal-42');
  });

  it('modes: plan refuses writes without asking; auto-edit writes without asking and shell still asks', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_p', name: 'write_file', arguments: { path: 'plan.txt', content: 'x' } }] },
      { content: 'Here is my plan.' },
      { toolCalls: [{ id: 'call_q', name: 'write_file', arguments: { path: 'auto.txt', content: 'y' } }] },
      { toolCalls: [{ id: 'call_sh', name: 'shell', arguments: { command: 'true' } }] },
      { content: 'done' },
    );
    const e = editor();
    const { sessionId } = await newSession(e);
    await e.agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan it' }] });
    expect(e.permissions).toHaveLength(0);
    expect(existsSync(join(dir, 'plan.txt'))).toBe(false);
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toMatch(/Plan mode/);
    expect(e.of('current_mode_update', sessionId)).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'plan' }]);

    const set = await e.agent.request('session/set_config_option', { sessionId, configId: 'mode', value: 'auto-edit' });
    expect(set.configOptions.find((o) => o.id === 'mode')?.currentValue).toBe('auto-edit');
    e.answers.push('allow_once');
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'do it' }] });
    expect(readFileSync(join(dir, 'auto.txt'), 'utf8')).toBe('y');
    expect(e.permissions.map((p) => p.toolCall.kind)).toEqual(['execute']);
  });

  it('refuses an untrusted agents.yaml with a message the editor shows, and runs nothing', async () => {
    writeAgentsFile(dir, `${AGENTS}    middlewares: [{ module: ./mw.mjs }]\n`);
    writeFileSync(join(dir, 'mw.mjs'), "import { writeFileSync } from 'node:fs'; writeFileSync('pwned.txt', 'x'); export default {};\n");
    const e = editor();
    await e.initialize();
    const err = await e.agent.request('session/new', { cwd: dir, mcpServers: [] }).catch((x: unknown) => x as { message: string });
    expect((err as { message: string }).message).toMatch(/is not trusted[\s\S]*adk trust/);
    expect(existsSync(join(dir, 'pwned.txt'))).toBe(false);
    expect(server().chatRequests).toHaveLength(0);
  });

  it('answers a malformed message with a JSON-RPC error and goes on', async () => {
    const e = editor();
    await e.initialize();
    e.child.stdin!.write('{"jsonrpc":"2.0","id":99,"method":"session/prompt","params":{"nope":true}}\n');
    e.child.stdin!.write('this is not json\n');
    const deadline = Date.now() + 5000;
    while (!/"id":99/.test(e.stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const reply = e.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 99);
    expect(reply.error.code).toBe(-32602);
    server().enqueue({ content: 'still here' });
    const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [] });
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' });
    expect(e.text(sessionId)).toBe('still here');
  });

  it('asks ask_user questions as an elicitation form when the editor offers one, else in the next prompt', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_q1', name: 'ask_user', arguments: { question: 'Which port?' } }] },
      { content: 'Using the port you gave.' },
      { toolCalls: [{ id: 'call_q2', name: 'ask_user', arguments: { question: 'Which colour?' } }] },
      { content: 'Blue it is.' },
    );
    const forms: unknown[] = [];
    const e = editor({ capabilities: { elicitation: { form: {} } } });
    const { sessionId } = await newSession(e);
    // The test editor answers forms through the SDK's client side.
    e.onElicitation = (req) => {
      forms.push(req);
      return { action: 'accept', content: { answer: '7070' } };
    };
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'set it up' }] })).toEqual({ stopReason: 'end_turn' });
    expect(forms).toEqual([expect.objectContaining({ mode: 'form', sessionId, message: expect.stringContaining('Which port?') })]);
    expect(toolMessagesOf(server().chatRequests[1]!).at(-1).content).toContain('7070');

    // Without forms the question is the turn's last words; the next prompt answers it.
    const plain = editor();
    const s2 = (await newSession(plain)).sessionId;
    expect(await plain.agent.request('session/prompt', { sessionId: s2, prompt: [{ type: 'text', text: 'pick a colour' }] })).toEqual({ stopReason: 'end_turn' });
    expect(plain.text(s2)).toContain('Which colour?');
    expect(await plain.agent.request('session/prompt', { sessionId: s2, prompt: [{ type: 'text', text: 'blue' }] })).toEqual({ stopReason: 'end_turn' });
    expect(toolMessagesOf(server().chatRequests[3]!).at(-1).content).toContain('blue');
    expect(plain.text(s2)).toContain('Blue it is.');
  });

  it('lists the folder’s sessions; a missing key asks the editor to authenticate, naming the variable', async () => {
    const e = editor();
    const { sessionId } = await newSession(e);
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'adk-acp-other-')));
    const listed = await e.agent.request('session/list', { cwd: dir });
    expect(listed.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    expect(listed.sessions[0]).toMatchObject({ cwd: dir });
    expect((await e.agent.request('session/list', { cwd: other })).sessions).toEqual([]);

    writeAgentsFile(dir, AGENTS.replace('agents:', 'models:\n  claude: { provider: anthropic, model: claude-test }\nagents:').replace('tools: [read_file', 'model: claude\n    tools: [read_file'));
    const err = await e.agent.request('session/new', { cwd: dir, mcpServers: [] }).catch((x: unknown) => x as { code: number; message: string });
    expect(err).toMatchObject({ code: -32000, message: expect.stringContaining('ANTHROPIC_API_KEY') });
  });

  it('the editor going away mid-turn cancels the turn and saves it', async () => {
    server().enqueue({ content: 'y'.repeat(4000), chunkSize: 2, chunkDelayMs: 5 });
    const e = editor();
    const { sessionId } = await newSession(e);
    void e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'talk' }] }).catch(() => {});
    const deadline = Date.now() + 10_000;
    while (!e.text(sessionId).includes('yyyy') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(await e.close()).toBe(0);
    const shown = await runCli(['sessions', 'show', sessionId, '--json'], { env: { ADK_HOME: home } });
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: sessionId, status: 'cancelled' });
  });

  it('connects the stdio MCP servers the editor passes and gives their tools to the team; their credentials are never shown', async () => {
    const fixture = fileURLToPath(new URL('../tools/fixtures/mcp-server.mjs', import.meta.url));
    server().enqueue(
      { toolCalls: [{ id: 'call_add', name: 'mcp__calc__add', arguments: { a: 2, b: 3 } }] },
      { toolCalls: [{ id: 'call_echo', name: 'mcp__calc__echo', arguments: { text: 'calc-secret-token-98765' } }] },
      { content: 'It is 5.' },
    );
    const e = editor();
    await e.initialize();
    const { sessionId } = await e.agent.request('session/new', {
      cwd: dir,
      mcpServers: [{ name: 'calc', command: process.execPath, args: [fixture], env: [{ name: 'CALC_TOKEN', value: 'calc-secret-token-98765' }] }],
    });
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'add 2 and 3, token calc-secret-token-98765' }] })).toEqual({ stopReason: 'end_turn' });
    expect(server().chatRequests[0]!.body.tools.map((t: any) => t.function.name)).toContain('mcp__calc__add');
    expect(toolMessagesOf(server().chatRequests[1]!).at(-1).content).toBe('5');
    // The call's arguments and its result reach the editor with the credential blanked.
    expect(e.stdout).not.toContain('calc-secret-token-98765');
    expect(e.of('tool_call', sessionId).find((c) => c.toolCallId === 'call_echo')?.rawInput).toEqual({ text: '[REDACTED]' });
    expect(e.of('tool_call_update', sessionId).find((c) => c.toolCallId === 'call_echo' && c.status)?.rawOutput).toEqual({ content: expect.stringContaining('echo: [REDACTED]') });
    // A remote server the editor knows, with its credential header: reached, and the credential never shown.
    const http = await startMcpHttpServer();
    try {
      server().enqueue({ toolCalls: [{ id: 'call_who', name: 'mcp__remote__whoami', arguments: {} }] }, { content: 'checked' });
      const remote = await e.agent.request('session/new', { cwd: dir, mcpServers: [{ type: 'http', name: 'remote', url: http.url, headers: [{ name: 'Authorization', value: 'Bearer editor-header-secret-55' }] }] });
      await e.agent.request('session/prompt', { sessionId: remote.sessionId, prompt: [{ type: 'text', text: 'who am i' }] });
      expect(http.headers.at(-1)?.authorization).toBe('Bearer editor-header-secret-55');
      expect(toolMessagesOf(server().chatRequests.at(-1)!).at(-1).content).toBe('auth: [REDACTED]');
      expect(e.stdout).not.toContain('editor-header-secret-55');
    } finally {
      await http.close();
    }
  });

  it('adk acp --max-model-calls: a reached budget is a permission request; raise goes on where it stopped, stop ends the turn', async () => {
    const read = (i: number) => ({ toolCalls: [{ id: `r${i}`, name: 'read_file', arguments: { path: 'agents.yaml' } }] });
    server().enqueue(read(1), read(2), { content: 'Read twice.' }, read(3), read(4));
    const e = editor({ args: ['--max-model-calls', '2'] });
    const { sessionId } = await newSession(e);
    e.answers.push('allow_once', 'reject_once');
    const first = await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'read it' }] });
    expect(first.stopReason).toBe('end_turn');
    const raise = e.permissions[0]!;
    expect(raise.toolCall).toMatchObject({ title: 'Budget reached: max_model_calls (2 spent of 2)' });
    expect(raise.options.map((o) => o.name)).toEqual(['Raise max_model_calls to 4 and go on', 'Stop the run here']);
    expect(server().chatRequests).toHaveLength(3);
    // The run went on with its history (both reads' results), not from scratch.
    expect(toolMessagesOf(server().chatRequests[2]!)).toHaveLength(2);
    // A new prompt starts a fresh budget; at the request, stop ends the turn: ACP's max_turn_requests.
    const second = await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] });
    expect(e.permissions).toHaveLength(2);
    expect(second.stopReason).toBe('max_turn_requests');
    expect(server().chatRequests).toHaveLength(5);
  });

  it('a plan review is a permission request showing the plan: accept goes on, revise tells the model', async () => {
    writeAgentsFile(dir, AGENTS.replace('ask_user]', 'ask_user, review_plan]'));
    server().enqueue(
      { toolCalls: [{ id: 'call_plan', name: 'review_plan', arguments: { steps: ['Read the code', 'Fix the bug'], message: 'My plan' } }] },
      { content: 'Starting.' },
      { toolCalls: [{ id: 'call_plan2', name: 'review_plan', arguments: { steps: ['Rewrite everything'] } }] },
      { content: 'Revising.' },
    );
    const e = editor();
    const { sessionId } = await newSession(e);
    e.answers.push('allow_once', 'reject_once');
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan' }] });
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan again' }] });
    const [first, second] = e.permissions;
    expect(first!.toolCall).toMatchObject({ toolCallId: 'call_plan', title: 'Review the plan', content: [{ type: 'content', content: { type: 'text', text: 'My plan\n\n1. Read the code\n2. Fix the bug' } }] });
    expect(first!.options.map((o) => o.name)).toEqual(['Accept the plan', 'Revise the plan']);
    expect(second!.toolCall.toolCallId).toBe('call_plan2');
    expect(toolMessagesOf(server().chatRequests[1]!).at(-1).content).toMatch(/accepted the plan/);
    expect(toolMessagesOf(server().chatRequests[3]!).at(-1).content).toMatch(/wants changes/);
  });

  it('a deep agent’s todos are the plan; a reply cut off by its limit ends max_tokens; always reject holds for the session', async () => {
    writeAgentsFile(dir, `version: 1
default: deep
agents:
  deep:
    type: deep
    description: A deep test agent.
    instruction: Plan with todos.
    tools: [shell]
    approval: [shell]
`);
    server().enqueue(
      { toolCalls: [{ id: 'call_t', name: 'write_todos', arguments: { todos: [{ content: 'Read the code', status: 'in_progress' }, { content: 'Fix it', status: 'pending' }] } }] },
      { content: 'Planned.' },
      { content: 'This answer was cut', finishReason: 'length' },
      { toolCalls: [{ id: 'call_s1', name: 'shell', arguments: { command: 'echo one > one.txt' } }] },
      { toolCalls: [{ id: 'call_s2', name: 'shell', arguments: { command: 'echo two > two.txt' } }] },
      { content: 'Gave up on shell.' },
    );
    const e = editor();
    const { sessionId } = await newSession(e);
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'plan' }] })).toEqual({ stopReason: 'end_turn' });
    expect(e.of('plan', sessionId)).toEqual([
      { sessionUpdate: 'plan', entries: [{ content: 'Read the code', priority: 'medium', status: 'in_progress' }, { content: 'Fix it', priority: 'medium', status: 'pending' }] },
    ]);
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'long' }] })).toEqual({ stopReason: 'max_tokens' });

    e.answers.push('reject_always');
    expect(await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'shell twice' }] })).toEqual({ stopReason: 'end_turn' });
    // Asked once; the second call was refused without asking, and the model told why.
    expect(e.permissions).toHaveLength(1);
    expect(existsSync(join(dir, 'one.txt')) || existsSync(join(dir, 'two.txt'))).toBe(false);
    expect(toolMessagesOf(server().chatRequests.at(-1)!).at(-1).content).toMatch(/reject every shell call/);
  });

  it('switches the model from the editor’s model picker; session/resume continues without a replay; session/close frees the session', async () => {
    writeAgentsFile(dir, AGENTS.replace('agents:', `models:\n  main: { model: gpt-test, base_url: "${server().url}", api_key_env: OPENAI_API_KEY }\n  other: { model: gpt-other, base_url: "${server().url}", api_key_env: OPENAI_API_KEY }\nagents:`).replace('tools: [read_file', 'model: main\n    tools: [read_file'));
    server().enqueue({ content: 'from main' }, { content: 'from other' }, { content: 'resumed' });
    const e = editor({ env: { ...serverEnv(server(), 'test-key-123456', home), ADK_MODEL: undefined } });
    const { sessionId, configOptions } = await newSession(e);
    const model = configOptions!.find((o) => o.id === 'model')!;
    expect(model.type === 'select' && model.options.map((o) => ('value' in o ? o.value : ''))).toEqual(['gpt-test', 'gpt-other']);
    expect(model.currentValue).toBe('gpt-test');
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] });
    const set = await e.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'gpt-other' });
    expect(set.configOptions.find((o) => o.id === 'model')?.currentValue).toBe('gpt-other');
    await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] });
    expect(server().chatRequests.map((r) => r.body.model)).toEqual(['gpt-test', 'gpt-other']);
    await e.agent.request('session/close', { sessionId });
    await expect(e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'x' }] })).rejects.toMatchObject({ code: -32002 });

    const again = editor();
    await again.initialize();
    await again.agent.request('session/resume', { sessionId, cwd: dir });
    expect(again.of('user_message_chunk')).toEqual([]);
    expect(await again.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'three' }] })).toEqual({ stopReason: 'end_turn' });
    expect(textOf(server().chatRequests.at(-1)!)).toContain('two');
  });

  it('a remote server that changes its tool list (tools/list_changed) is seen at the next prompt', async () => {
    const http = await startMcpHttpServer();
    try {
      server().onRequest(() => ({ content: 'ok' }));
      const e = editor();
      await e.initialize();
      const { sessionId } = await e.agent.request('session/new', { cwd: dir, mcpServers: [{ type: 'http', name: 'live', url: http.url, headers: [] }] });
      await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'one' }] });
      const names = (i: number) => server().chatRequests[i]!.body.tools.map((t: any) => t.function.name);
      expect(names(0)).toContain('mcp__live__whoami');
      expect(names(0)).not.toContain('mcp__live__late_tool');
      const seen = http.headers.length;
      http.addTool('late_tool', 'late');
      // The notification arrives on the session's stream and adk lists the tools again (one more request).
      for (let i = 0; i < 100 && http.headers.length === seen; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 100));
      await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'two' }] });
      expect(names(1)).toEqual(expect.arrayContaining(['mcp__live__whoami', 'mcp__live__late_tool']));
    } finally {
      await http.close();
    }
  });

  it('takes images and PDFs from the editor (image blocks, embedded resources) to the model in its own format', async () => {
    const png = readFileSync(fileURLToPath(new URL('../fixtures/parts/red.png', import.meta.url))).toString('base64');
    const pdf = readFileSync(fileURLToPath(new URL('../fixtures/parts/invoice.pdf', import.meta.url))).toString('base64');
    server().enqueue({ content: 'A red square and an invoice.' });
    const e = editor();
    const { sessionId } = await newSession(e);
    const res = await e.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'what are these?' },
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: `file://${dir}/invoice.pdf`, mimeType: 'application/pdf', blob: pdf } },
      ],
    });
    expect(res).toEqual({ stopReason: 'end_turn' });
    const user = server().chatRequests[0]!.body.messages.find((m: any) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'what are these?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'file', file: { filename: 'invoice.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
    ]);
    // Bytes that are no image are refused with the reason, and nothing runs.
    const bad = await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'image', data: Buffer.from('not an image').toString('base64'), mimeType: 'image/png' }] }).catch((x: unknown) => x as { code: number; message: string });
    expect(bad).toMatchObject({ code: -32602 });
    expect(server().chatRequests).toHaveLength(1);
  });
});
