import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, toolMessagesOf, useServer, writeAgentsFile, shellApprovalAgents } from '../cli/helpers.js';

// Issue 11, items 3, 5 and 9: approvals reach exactly the call, in the session's folder, at most once.
const server = useServer();

const AGENTS = shellApprovalAgents(['shell', 'read_file']);

let home: string;
let work: string;
let agents: string;
beforeEach(() => {
  home = tempHome();
  work = tempDir('adk-approvals-work-');
  agents = writeAgentsFile(tempDir('adk-approvals-cfg-'), AGENTS);
});
const opts = (cwd = work) => ({ env: serverEnv(server(), 'test-key-123456', home), cwd });

describe('tool calls have ids adk owns (item 3)', () => {
  it('two shell calls with one provider id: approving the safe one runs only the safe one', async () => {
    server().enqueue(
      {
        toolCalls: [
          { id: 'call_dup', name: 'shell', arguments: { command: 'echo DANGEROUS > d.txt' } },
          { id: 'call_dup', name: 'shell', arguments: { command: 'echo safe > s.txt' } },
        ],
      },
      { content: 'done' },
    );
    const r = await expectExit(['run', '--agents', agents, '--json', 'two commands'], 3, opts());
    const id = sessionIdOf(r);
    const calls = ofType(r.lines, 'tool_call');
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    const points = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(points).toHaveLength(2);
    expect(new Set(points.map((p: any) => p.address)).size).toBe(2);
    const safe = points.find((p: any) => p.arguments.command.includes('safe'));
    const dangerous = points.find((p: any) => p.arguments.command.includes('DANGEROUS'));
    // Approvals name the call: its id and its command.
    expect(safe.callId).toBe(calls.find((c) => c.arguments.command.includes('safe')).id);
    expect(safe.message).toContain('echo safe > s.txt');

    const a = await expectExit(['resume', id, '--approve', safe.id, '--json'], 3, opts());
    expect(existsSync(join(work, 's.txt'))).toBe(true);
    expect(existsSync(join(work, 'd.txt')), 'the approval moved onto the dangerous call').toBe(false);
    expect(ofType(a.lines, 'interrupt')[0].interrupts.map((p: any) => p.id)).toEqual([dangerous.id]);

    await expectExit(['resume', id, '--reject', dangerous.id, '--reason', 'no', '--json'], 0, opts());
    expect(existsSync(join(work, 'd.txt'))).toBe(false);
    // The model gets each result under its own call id, matching the calls it is shown.
    const req = server().chatRequests[1].body;
    const assistant = req.messages.find((m: any) => m.tool_calls);
    const callIds = assistant.tool_calls.map((c: any) => c.id);
    expect(new Set(callIds).size).toBe(2);
    const results = toolMessagesOf(server().chatRequests[1]);
    expect(results.map((m: any) => m.tool_call_id).sort()).toEqual([...callIds].sort());
    const resultFor = (cmd: string) => results.find((m: any) => m.tool_call_id === assistant.tool_calls.find((c: any) => c.function.arguments.includes(cmd)).id).content;
    expect(resultFor('safe')).toContain('exit code: 0');
    expect(resultFor('DANGEROUS')).toContain('rejected');
  });

  it('empty and repeated ids for ordinary tools: each result reaches its own call', async () => {
    writeFileSync(join(work, 'a.txt'), 'alpha');
    writeFileSync(join(work, 'b.txt'), 'bravo');
    server().enqueue(
      { toolCalls: [{ id: '', name: 'read_file', arguments: { path: 'a.txt' } }, { id: '', name: 'read_file', arguments: { path: 'b.txt' } }] },
      { toolCalls: [{ id: 'x', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ id: 'x', name: 'read_file', arguments: { path: 'b.txt' } }] },
      { content: 'done' },
    );
    await expectExit(['run', '--agents', agents, '--json', 'read both'], 0, opts());
    const last = server().chatRequests[3].body.messages;
    const calls = last.flatMap((m: any) => m.tool_calls ?? []);
    expect(calls).toHaveLength(4);
    expect(new Set(calls.map((c: any) => c.id)).size).toBe(4);
    expect(calls.every((c: any) => c.id.length > 0)).toBe(true);
    for (const c of calls) {
      const result = last.find((m: any) => m.role === 'tool' && m.tool_call_id === c.id);
      expect(result.content).toContain(JSON.parse(c.function.arguments).path === 'a.txt' ? 'alpha' : 'bravo');
    }
  });
});

describe('a session is bound to its workspace (item 5)', () => {
  it('an approval asked in folder A and answered from folder B runs in A', async () => {
    const b = tempDir('adk-approvals-other-');
    writeFileSync(join(work, 'a.log'), 'a');
    writeFileSync(join(b, 'b.log'), 'b');
    server().enqueue({ toolCalls: [{ id: 'rm', name: 'shell', arguments: { command: 'rm -f *.log' } }] }, { content: 'cleaned' });
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'clean logs'], 3, opts(work)));
    await expectExit(['resume', id, '--approve', '--json'], 0, opts(b));
    expect(existsSync(join(work, 'a.log'))).toBe(false);
    expect(existsSync(join(b, 'b.log')), "B's files were deleted").toBe(true);
  });

  it('a workspace that no longer exists: exit 2 with a clear message, nothing runs', async () => {
    const gone = tempDir('adk-approvals-gone-');
    server().enqueue({ toolCalls: [{ id: 'rm', name: 'shell', arguments: { command: 'touch ran.txt' } }] });
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'touch'], 3, opts(gone)));
    rmSync(gone, { recursive: true });
    const r = await runCli(['resume', id, '--approve', '--json'], opts(work));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/workspace .* is not available/);
    expect(existsSync(join(work, 'ran.txt'))).toBe(false);
  });
});

describe('at most once for approved side effects (item 9)', () => {
  it('adk dies after the approved command ran: resume asks again with a warning; only a knowing approval runs it again', async () => {
    // The command does its work, then kills adk (its parent) before the result can be saved.
    // Unsandboxed: inside bwrap's pid namespace the command cannot see adk to kill it.
    const cmd = 'echo ran >> ran.txt; kill -9 $PPID; sleep 5';
    server().enqueue({ toolCalls: [{ id: 'once', name: 'shell', arguments: { command: cmd } }] }, { content: 'finished' });
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'do it once'], 3, opts()));
    const killed = await runCli(['resume', id, '--approve', '--json'], { ...opts(), env: { ...opts().env, ADK_SHELL_SANDBOX: 'off' } });
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(join(work, 'ran.txt'), 'utf8')).toBe('ran\n');

    const warned = await expectExit(['resume', id, '--approve', '--json'], 3, opts());
    expect(readFileSync(join(work, 'ran.txt'), 'utf8'), 'it ran a second time, unasked').toBe('ran\n');
    const [point] = ofType(warned.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'approval', tool: 'shell', mayHaveRun: true });
    expect(point.message).toContain('may already have run');
    expect(warned.stderr).toContain(`adk resume ${id}`);

    // The person saw the warning and decides (here: it already ran); the run completes. (A knowing
    // approval runs it again: test/trust/runner-at-most-once.test.ts.)
    const again = await runCli(['resume', id, '--reject', '--reason', 'it already ran', '--json'], opts());
    expect(again.code).toBe(0);
    expect(readFileSync(join(work, 'ran.txt'), 'utf8')).toBe('ran\n');
    expect(ofType(again.lines, 'done')[0]).toMatchObject({ status: 'completed', output: 'finished' });
  });
});
