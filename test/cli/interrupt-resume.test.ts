import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, textOf, toolMessagesOf, useServer, withoutDeltas, writeAgentsFile } from './helpers.js';

// Issue 4, Must show 4: interrupt and resume end to end, through the built CLI and the openai SDK.
const server = useServer();

const AGENTS = `version: 1
default: chat
agents:
  chat:
    description: A test agent whose shell needs approval.
    instruction: You are a careful test agent.
    tools: [shell, ask_user, current_time]
    approval: [shell]
`;

let dir: string;
let agents: string;
let home: string;
beforeEach(() => {
  dir = tempDir('adk-resume-cwd-');
  agents = writeAgentsFile(tempDir('adk-resume-cfg-'), AGENTS);
  home = tempHome();
});
const opts = () => ({ env: serverEnv(server(), 'test-key-123456', home), cwd: dir });
const run = (prompt: string, code: number, extra: string[] = []) => expectExit(['run', '--agents', agents, '--json', ...extra, prompt], code, opts());
const resume = (id: string, args: string[], code: number) => expectExit(['resume', id, ...args, '--json'], code, opts());

describe('adk run with a shell that needs approval', () => {
  it('stops with exit 3 and an interrupt line; --approve runs the command and completes', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_sh', name: 'shell', arguments: { command: 'echo approved-$((6*7))' } }] }, { content: 'The command printed approved-42.' });
    const r = await run('please run the echo', 3);
    const id = sessionIdOf(r);
    expect(r.lines[0]).toMatchObject({ type: 'session', agent: 'chat' });
    expect(ofType(r.lines, 'tool_call')).toEqual([expect.objectContaining({ id: 'call_sh', name: 'shell', agent: 'chat', runPath: ['chat'] })]);
    // Nothing ran: no result before the approval.
    expect(ofType(r.lines, 'tool_result')).toEqual([]);
    const [interrupt] = ofType(r.lines, 'interrupt');
    expect(interrupt).toMatchObject({ checkpointId: expect.any(String) });
    expect(interrupt.interrupts).toHaveLength(1);
    const [point] = interrupt.interrupts;
    expect(point).toEqual({
      id: expect.any(String),
      address: 'agent:chat;tool:shell:call_sh',
      kind: 'approval',
      tool: 'shell',
      callId: 'call_sh',
      arguments: { command: 'echo approved-$((6*7))' },
      message: expect.any(String),
    });
    expect(point.message.length).toBeGreaterThan(0);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'interrupted', sessionId: id });
    expect(r.stderr).toContain(`adk resume ${id}`);
    expect(server().chatRequests).toHaveLength(1);

    const a = await resume(id, ['--approve'], 0);
    expect(sessionIdOf(a)).toBe(id);
    const [result] = ofType(a.lines, 'tool_result');
    expect(result).toMatchObject({ id: 'call_sh', name: 'shell', isError: false });
    expect(result.content).toContain('approved-42');
    expect(result.content).toContain('exit code: 0');
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'The command printed approved-42.' });
    // The model was not asked again for the step before the approval, and saw the command's output.
    expect(server().chatRequests).toHaveLength(2);
    const [toolMsg] = toolMessagesOf(server().chatRequests[1]);
    expect(toolMsg).toMatchObject({ tool_call_id: 'call_sh' });
    expect(toolMsg.content).toContain('approved-42');

    // A finished turn cannot be approved again (the command must not run twice).
    const again = await runCli(['resume', id, '--approve', '--json'], opts());
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no pending interrupts/);
    expect(server().chatRequests).toHaveLength(2);
  });

  it('--always approves and lets shell run unasked for the rest of the session', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_a', name: 'shell', arguments: { command: 'echo first-ran' } }] },
      { content: 'first done' },
      { toolCalls: [{ id: 'call_b', name: 'shell', arguments: { command: 'echo second-ran' } }] },
      { content: 'second done' },
    );
    const id = sessionIdOf(await run('run the first', 3));
    expect(ofType((await resume(id, ['--always'], 0)).lines, 'done')[0].output).toBe('first done');
    const next = await expectExit(['resume', id, 'run the second', '--json'], 0, opts());
    expect(ofType(next.lines, 'interrupt')).toEqual([]);
    expect(ofType(next.lines, 'tool_result')[0].content).toContain('second-ran');
  });

  it('--reject --reason reaches the model as the tool result and the command never runs', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_rm', name: 'shell', arguments: { command: 'touch rejected-marker' } }] }, { content: 'Understood, I will not run it.' });
    const r = await run('make a marker file', 3);
    const id = sessionIdOf(r);
    const a = await resume(id, ['--reject', '--reason', 'no'], 0);
    const [result] = ofType(a.lines, 'tool_result');
    expect(result).toMatchObject({ id: 'call_rm', name: 'shell', isError: true });
    expect(result.content).toMatch(/rejected.*: no$/);
    const [toolMsg] = toolMessagesOf(server().chatRequests[1]);
    expect(toolMsg.tool_call_id).toBe('call_rm');
    expect(toolMsg.content).toMatch(/: no$/);
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Understood, I will not run it.' });
    expect(existsSync(join(dir, 'rejected-marker'))).toBe(false);
  });

  it('resuming without an answer interrupts again with the same interrupt id', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_1', name: 'shell', arguments: { command: 'echo later' } }] }, { content: 'ok' });
    const r = await run('run echo later', 3);
    const id = sessionIdOf(r);
    const first = ofType(r.lines, 'interrupt')[0].interrupts[0];

    const again = await resume(id, [], 3);
    const second = ofType(again.lines, 'interrupt')[0];
    expect(second.interrupts).toHaveLength(1);
    expect(second.interrupts[0]).toMatchObject({ id: first.id, address: first.address, kind: 'approval', tool: 'shell' });
    expect(again.lines.at(-1)).toMatchObject({ type: 'done', status: 'interrupted' });
    expect(ofType(again.lines, 'tool_result')).toEqual([]);
    expect(server().chatRequests).toHaveLength(1);

    // Answering it by its id (a prefix is enough) still works afterwards.
    const ok = await resume(id, ['--approve', first.id.slice(0, 8)], 0);
    expect(ofType(ok.lines, 'tool_result')[0].content).toContain('later');
  });

  it('a new prompt on a finished session continues the conversation with its history', async () => {
    server().enqueue({ content: 'The capital of France is Paris.' });
    const r = await run('What is the capital of France?', 0);
    const id = sessionIdOf(r);

    server().enqueue({ content: 'The capital of Italy is Rome.' });
    const second = await expectExit(['resume', id, 'And of Italy?', '--json'], 0, opts());
    expect(sessionIdOf(second)).toBe(id);
    expect(second.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'The capital of Italy is Rome.' });
    const req2 = server().chatRequests[1].body.messages.filter((m: any) => m.role !== 'system');
    expect(req2.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'What is the capital of France?'],
      ['assistant', 'The capital of France is Paris.'],
      ['user', 'And of Italy?'],
    ]);

    server().enqueue({ content: 'Madrid.' });
    await run('And Spain?', 0, ['--session', id]);
    const req3 = server().chatRequests[2].body.messages.filter((m: any) => m.role !== 'system');
    expect(req3.map((m: any) => m.content)).toEqual(['What is the capital of France?', 'The capital of France is Paris.', 'And of Italy?', 'The capital of Italy is Rome.', 'And Spain?']);

    const show = await expectExit(['sessions', 'show', id, '--json'], 0, opts());
    const record = JSON.parse(show.stdout);
    expect(record).toMatchObject({ id, status: 'completed', rootAgent: 'chat', pendingInterrupts: [] });
    expect(record.messages.map((m: any) => m.content)).toEqual([...req3.map((m: any) => m.content), 'Madrid.']);
  });

  it('interrupt ids by prefix: --targets answers the one it names; a prefix that matches none or several is exit 2 listing the pending ids', async () => {
    server().enqueue({ toolCalls: [
      { id: 'call_x', name: 'shell', arguments: { command: 'echo one-ran' } },
      { id: 'call_y', name: 'shell', arguments: { command: 'echo two-ran' } },
    ] }, { content: 'both done' });
    const r = await run('run both', 3);
    const id = sessionIdOf(r);
    const [x, y] = ofType(r.lines, 'interrupt')[0].interrupts.map((p: any) => p.id as string);
    let shared = 0;
    while (x[shared] === y[shared]) shared++;
    const both = x.slice(0, shared); // a prefix of both ids (maybe empty)
    const refused = async (args: string[], what: RegExp) => {
      const e = await runCli(['resume', id, ...args, '--json'], opts());
      expect(e.code, e.stderr).toBe(2);
      expect(e.stderr).toMatch(what);
      expect(e.stderr).toContain(x);
      expect(e.stderr).toContain(y);
    };
    await refused(['--targets', JSON.stringify({ [both]: { approved: true } })], /matches 2 pending interrupts/);
    await refused(['--approve', both], /matches 2 pending interrupts/);
    await refused(['--targets', JSON.stringify({ 'no-such-id': { approved: true } })], /no pending interrupt no-such-id/);
    expect(server().chatRequests).toHaveLength(1);

    // A unique prefix in --targets answers that interrupt (not a silent ask-again).
    const one = await resume(id, ['--targets', JSON.stringify({ [x.slice(0, shared + 1)]: { approved: true } })], 3);
    expect(ofType(one.lines, 'tool_result')).toEqual([expect.objectContaining({ id: 'call_x', isError: false, content: expect.stringContaining('one-ran') })]);
    expect(ofType(one.lines, 'interrupt')[0].interrupts.map((p: any) => p.id)).toEqual([y]);
    const rest = await resume(id, ['--approve'], 0);
    expect(rest.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'both done' });
  });

  it('--input answers an ask_user question', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_q', name: 'ask_user', arguments: { question: 'Which colour do you like?' } }] }, { content: 'Blue it is.' });
    const r = await run('pick a colour for me', 3);
    const id = sessionIdOf(r);
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'input', message: 'Which colour do you like?', address: 'agent:chat;tool:ask_user:call_q' });

    // --approve does not answer a question: it asks again.
    await resume(id, ['--approve'], 3);
    const a = await resume(id, ['--input', 'deep blue'], 0);
    expect(ofType(a.lines, 'tool_result')[0]).toMatchObject({ id: 'call_q', name: 'ask_user', content: 'deep blue', isError: false });
    expect(toolMessagesOf(server().chatRequests.at(-1)!)[0]).toMatchObject({ tool_call_id: 'call_q', content: 'deep blue' });
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Blue it is.' });
  });

  it('adk run --session refuses a session that waits on an interrupt', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_w', name: 'shell', arguments: { command: 'echo x' } }] });
    const id = sessionIdOf(await run('run echo x', 3));
    const r = await runCli(['run', '--json', '--session', id, 'something else'], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`adk resume ${id}`);
    expect(server().chatRequests).toHaveLength(1);
  });
});

describe('adk sessions', () => {
  it('list, show and delete', async () => {
    server().enqueue({ content: 'first answer' });
    const a = sessionIdOf(await run('first question', 0));
    server().enqueue({ toolCalls: [{ id: 'call_s', name: 'shell', arguments: { command: 'echo s' } }] });
    const b = sessionIdOf(await run('second question', 3));

    const list = JSON.parse((await expectExit(['sessions', 'list', '--json'], 0, opts())).stdout);
    expect(list.map((e: any) => e.id).sort()).toEqual([a, b].sort());
    expect(list.find((e: any) => e.id === a)).toMatchObject({ status: 'completed', rootAgent: 'chat', title: 'first question' });
    expect(list.find((e: any) => e.id === b)).toMatchObject({ status: 'interrupted', title: 'second question' });

    const text = await expectExit(['sessions', 'list'], 0, opts());
    expect(text.stdout).toContain(a);
    expect(text.stdout).toMatch(new RegExp(`${b}\\s+interrupted`));

    const shown = JSON.parse((await expectExit(['sessions', 'show', b, '--json'], 0, opts())).stdout);
    expect(shown).toMatchObject({ id: b, status: 'interrupted', agentsFile: agents });
    expect(shown.pendingInterrupts).toEqual([expect.objectContaining({ kind: 'approval', tool: 'shell', arguments: { command: 'echo s' } })]);
    const shownText = await expectExit(['sessions', 'show', a], 0, opts());
    expect(shownText.stdout).toContain('first question');
    expect(shownText.stdout).toContain('first answer');

    const del = await expectExit(['sessions', 'delete', b, '--json'], 0, opts());
    expect(JSON.parse(del.stdout)).toEqual({ deleted: b });
    const after = JSON.parse((await expectExit(['sessions', 'list', '--json'], 0, opts())).stdout);
    expect(after.map((e: any) => e.id)).toEqual([a]);
    const gone = await runCli(['sessions', 'show', b], opts());
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain(b);
    const noResume = await runCli(['resume', b, '--approve', '--json'], opts());
    expect(noResume.code).not.toBe(0);
    expect(noResume.code).not.toBe(3);
  });

  it('an unknown session id is a usage error (exit 2) with a one-line message', async () => {
    for (const args of [
      ['sessions', 'show', 'nosuchid'],
      ['sessions', 'delete', 'nosuchid'],
      ['resume', 'nosuchid', '--approve', '--json'],
      ['run', '--session', 'nosuchid', '--json', 'hi'],
    ]) {
      const r = await runCli(args, opts());
      expect(r.code, `adk ${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/^adk: .*nosuchid.*\n$/);
    }
    expect(server().chatRequests).toHaveLength(0);
  });
});

describe('cancellation', () => {
  it('SIGINT mid-stream saves the session; adk resume continues it to completion', async () => {
    server().enqueue(
      { toolCalls: [{ id: 'call_t', name: 'current_time', arguments: {} }] },
      { content: 'one two three four five six seven eight nine ten eleven twelve', chunkSize: 4, chunkDelayMs: 120 },
      { content: 'It is late, as the clock said.' },
    );
    let sent = false;
    const r = await runCli(['run', '--agents', agents, '--json', 'what time is it?'], {
      ...opts(),
      onLine: (line, child) => {
        if (!sent && line.includes('"delta"')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(sent).toBe(true);
    expect(r.code, r.stderr).toBe(130);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    const id = sessionIdOf(r);
    await server().waitForAborted(1, 5000);

    const a = await resume(id, [], 0);
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'It is late, as the clock said.' });
    // The tool is not run again; the model gets the remaining call with the tool result.
    expect(ofType(a.lines, 'tool_result')).toEqual([]);
    expect(server().chatRequests).toHaveLength(3);
    const last = server().chatRequests[2];
    expect(toolMessagesOf(last)).toEqual([expect.objectContaining({ tool_call_id: 'call_t' })]);
    expect(textOf(last)).not.toContain('one two');

    const record = JSON.parse((await expectExit(['sessions', 'show', id, '--json'], 0, opts())).stdout);
    expect(record.status).toBe('completed');
    expect(record.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(withoutDeltas(a.lines).length).toBeGreaterThan(0);
  });
});
