import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectExit, offlineEnv, ofType, runCli, sessionIdOf, tempDir, tempHome } from '../cli/helpers.js';

// Issue 5, Must show 3: the `demo` team runs with no key and no server (the offline demo model).
let cwd: string;
let home: string;
beforeEach(() => {
  cwd = tempDir('adk-demo-cwd-');
  home = tempHome();
  writeFileSync(join(cwd, 'hello-demo.txt'), 'hi\n');
});
const opts = () => ({ env: offlineEnv(home), cwd });
const demo = (prompt: string, code: number) => expectExit(['run', '--agent', 'demo', '--json', prompt], code, opts());
const assistantMessages = (lines: any[]) => ofType(lines, 'message').filter((m) => m.role === 'assistant');

describe('the demo team, offline', () => {
  it('without a key or an agent name, the bundled file starts the demo team, which streams its answer', async () => {
    const r = await expectExit(['run', '--json', 'hello there'], 0, opts());
    expect(r.lines[0]).toMatchObject({ type: 'session', agent: 'demo' });
    const deltas = ofType(r.lines, 'delta');
    expect(deltas.length).toBeGreaterThan(5);
    const [message] = assistantMessages(r.lines);
    expect(message).toMatchObject({ agent: 'demo', runPath: ['demo'] });
    expect(message.content).toBe(deltas.map((d) => d.content).join(''));
    expect(message.content).toMatch(/demo/i);
    expect(ofType(r.lines, 'tool_call')).toEqual([]);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: message.content });

    // Text mode says it is the demo, on stderr.
    const t = await expectExit(['run', 'hello again'], 0, opts());
    expect(t.stderr).toMatch(/demo model/);
    expect(t.stdout).toMatch(/demo/i);
  });

  it('"list the files" calls list_dir', async () => {
    const r = await demo('list the files', 0);
    expect(ofType(r.lines, 'tool_call')).toEqual([expect.objectContaining({ agent: 'demo', name: 'list_dir', arguments: { path: '.' } })]);
    const [result] = ofType(r.lines, 'tool_result');
    expect(result).toMatchObject({ name: 'list_dir', isError: false });
    expect(result.content).toContain('hello-demo.txt');
    expect(assistantMessages(r.lines).at(-1)!.content).toContain('hello-demo.txt');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('"ask the researcher what time it is" transfers to demo_researcher, which calls current_time', async () => {
    const r = await demo('ask the researcher what time it is', 0);
    expect(ofType(r.lines, 'transfer')).toEqual([expect.objectContaining({ agent: 'demo', runPath: ['demo'], to: 'demo_researcher' })]);
    const calls = ofType(r.lines, 'tool_call');
    expect(calls.map((c) => [c.agent, c.name])).toEqual([
      ['demo', 'transfer_to_agent'],
      ['demo_researcher', 'current_time'],
    ]);
    expect(calls[1].runPath).toEqual(['demo', 'demo_researcher']);
    const time = ofType(r.lines, 'tool_result').find((x) => x.name === 'current_time');
    expect(time.content).toMatch(/\d{4}-\d\d-\d\dT/);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
    expect(assistantMessages(r.lines).at(-1)).toMatchObject({ agent: 'demo_researcher' });

    // The next question in the same session starts at the root again and can transfer again.
    const next = await expectExit(['run', '--session', sessionIdOf(r), '--json', 'ask the researcher for the date'], 0, opts());
    expect(ofType(next.lines, 'transfer')).toEqual([expect.objectContaining({ agent: 'demo', to: 'demo_researcher' })]);
  });

  it('"run `echo hi`" asks for approval (exit 3) and --approve runs it', async () => {
    const r = await demo('run `echo hi`', 3);
    const id = sessionIdOf(r);
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'approval', tool: 'shell', arguments: { command: 'echo hi' }, address: expect.stringMatching(/^agent:demo;tool:shell:/) });
    expect(ofType(r.lines, 'tool_result')).toEqual([]);

    const a = await expectExit(['resume', id, '--approve', '--json'], 0, opts());
    const [result] = ofType(a.lines, 'tool_result');
    expect(result).toMatchObject({ name: 'shell', content: 'hi\nexit code: 0', isError: false });
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('"ask me a question" asks the user (exit 3) and --input answers it', async () => {
    const r = await demo('ask me a question', 3);
    const id = sessionIdOf(r);
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'input', address: expect.stringMatching(/^agent:demo;tool:ask_user:/) });
    expect(point.message).toMatch(/\?$/);

    const a = await expectExit(['resume', id, '--input', 'Ada Lovelace', '--json'], 0, opts());
    expect(ofType(a.lines, 'tool_result')[0]).toMatchObject({ name: 'ask_user', content: 'Ada Lovelace', isError: false });
    expect(assistantMessages(a.lines).at(-1)!.content).toContain('Ada Lovelace');
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('demo_pipeline runs its two steps, the outline passed on', async () => {
    const r = await expectExit(['run', '--agent', 'demo_pipeline', '--json', 'explain adk'], 0, opts());
    expect(assistantMessages(r.lines).map((m) => [m.agent, m.runPath])).toEqual([
      ['demo_outliner', ['demo_pipeline', 'demo_outliner']],
      ['demo_writer', ['demo_pipeline', 'demo_outliner', 'demo_writer']],
    ]);
  });

  it('a real team without a key fails with a clear one-line message, not a stack', async () => {
    const r = await runCli(['run', '--agent', 'assistant', '--json', 'hi'], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
    expect(r.stderr).toMatch(/demo/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the demo model follows its own tips (issue 15)', () => {
  it('"run ls -la" runs the command (shell), "list the files" lists them', async () => {
    const { demoReply } = await import('../../src/core/models/demo.js');
    const tools = ['shell', 'list_dir'].map((name) => ({ name, description: name, parameters: {} }));
    const call = (text: string) => demoReply([{ role: 'user', content: text }], { tools }).toolCalls?.[0];
    expect(call('run ls -la')).toMatchObject({ name: 'shell', arguments: { command: 'ls -la' } });
    expect(call('run `echo hi`')).toMatchObject({ name: 'shell', arguments: { command: 'echo hi' } });
    expect(call('list the files here')).toMatchObject({ name: 'list_dir' });
  });
});
