import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { userMessage } from '../../src/core/schema/message.js';
import { builtinTools, DEFAULT_APPROVAL_TOOLS } from '../../src/core/tools/builtin/index.js';
import { OutputCapture } from '../../src/core/tools/builtin/output-capture.js';
import { shellTool } from '../../src/core/tools/builtin/shell.js';
import type { ToolContext } from '../../src/core/tools/tool.js';
import { fakeCtx, run, sandbox, waitFor, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(() => sb.cleanup());

describe('shell', () => {
  it('runs in the workspace root and reports output and exit code', async () => {
    const shell = shellTool({ workspaceRoot: sb.root });
    const ok = await run(shell, { command: 'pwd; echo out; echo err >&2' });
    expect(ok).toEqual({ content: `${sb.root}\nout\nerr\nexit code: 0`, isError: false });
    const failed = await run(shell, { command: 'echo bad; exit 7' });
    expect(failed.content).toBe('bad\nexit code: 7');
    expect((await run(shell, { command: 'true' })).content).toBe('(no output)\nexit code: 0');
    expect((await run(shell, { command: 'no-such-command-xyz' })).content).toMatch(/not found\nexit code: 127$/);
  });

  it('caps output, keeping head and tail with a note', async () => {
    const shell = shellTool({ workspaceRoot: sb.root, maxOutputChars: 1000 });
    const r = await run(shell, { command: 'echo START; seq 1 20000; echo END' });
    expect(r.content.length).toBeLessThan(1200);
    expect(r.content.startsWith('START\n1\n2\n')).toBe(true);
    expect(r.content).toMatch(/\[\.\.\. \d+ characters omitted \(output was \d+ characters\) \.\.\.\]/);
    expect(r.content).toMatch(/20000\nEND\nexit code: 0$/);
  });

  it('uses the default 30,000 character cap', async () => {
    const r = await run(builtinTools({ workspaceRoot: sb.root }).shell, { command: 'head -c 100000 /dev/zero | tr "\\0" a' });
    const body = r.content.replace(/\nexit code: 0$/, '');
    expect(body.replace(/\n\[\.\.\..*\.\.\.\]\n/, '')).toHaveLength(30_000);
    expect(body).toMatch(/70000 characters omitted/);
  });

  // A background child that keeps touching a file: its pid means nothing inside the sandbox's own pid namespace.
  const TICKER = '(while :; do date +%s%N > tick; sleep 0.05; done) &';
  const stopsTicking = async () => {
    expect(await waitFor(() => sb.exists('tick'))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const before = sb.read('tick');
    await new Promise((r) => setTimeout(r, 400));
    return sb.read('tick') === before;
  };

  for (const mode of ['off', 'auto'] as const) {
    it(`kills everything the command started on timeout (sandbox ${mode})`, async () => {
      const shell = shellTool({ workspaceRoot: sb.root, timeoutMs: 500, sandbox: mode });
      const started = Date.now();
      const r = await run(shell, { command: `${TICKER} echo started; wait` });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.isError).toBe(true);
      expect(r.content).toMatch(/^started\nexit code: 137 \(killed after the 0\.5 s timeout\)/);
      expect(await stopsTicking()).toBe(true);
    });

    it(`kills everything the command started when the signal aborts (sandbox ${mode})`, async () => {
      const shell = shellTool({ workspaceRoot: sb.root, sandbox: mode });
      const ctrl = new AbortController();
      const pending = run(shell, { command: `${TICKER} wait` }, fakeCtx({ signal: ctrl.signal }));
      expect(await waitFor(() => sb.exists('tick'))).toBe(true);
      ctrl.abort();
      const r = await pending;
      expect(r.content).toMatch(/exit code: 137 \(killed: the run was cancelled\)/);
      expect(await stopsTicking()).toBe(true);
    });
  }

  it('does not wait for background children that keep the pipes open', async () => {
    // Unsandboxed: the pid is a host pid only outside bwrap's pid namespace (inside, the child dies with the command).
    const r = await run(shellTool({ workspaceRoot: sb.root, sandbox: 'off' }), { command: 'sleep 5 & echo $! > bg.pid; echo done' });
    expect(r.content).toBe('done\nexit code: 0');
    process.kill(Number(sb.read('bg.pid')), 'SIGKILL');
  });

  it('needs approval by default, and the agent stops before running it', async () => {
    expect(DEFAULT_APPROVAL_TOOLS).toEqual(['shell']);
    const model = new ScriptedChatModel([{ toolCalls: [{ name: 'shell', arguments: { command: 'touch ran.txt', approved: true } }] }]);
    const agent = new ChatModelAgent({
      name: 'a',
      description: 'a',
      model,
      tools: [builtinTools({ workspaceRoot: sb.root }).shell],
      approval: [...DEFAULT_APPROVAL_TOOLS],
    });
    const events: AgentEvent[] = [];
    for await (const e of agent.run({ messages: [userMessage('go')] })) events.push(e);
    const interrupted = events.find((e) => e.action?.interrupted)?.action?.interrupted;
    expect(interrupted?.contexts[0].info).toMatchObject({ kind: 'approval', tool: 'shell' });
    expect(sb.exists('ran.txt')).toBe(false);
  });
});

describe('OutputCapture', () => {
  it('keeps everything under the cap and head+tail above it', () => {
    const small = new OutputCapture(10);
    small.append('abc');
    small.append('defghij');
    expect(small.toString()).toBe('abcdefghij');
    const big = new OutputCapture(10);
    for (const ch of 'abcdefghijklmnopqrstuvwxyz') big.append(ch);
    expect(big.toString()).toBe('abcde\n[... 16 characters omitted (output was 26 characters) ...]\nvwxyz');
  });
});

describe('shell environment', () => {
  it('passes an allow-list (PATH, HOME, LANG, …) plus the names listed, never keys or tokens', async () => {
    const { shellEnvironment } = await import('../../src/core/tools/builtin/shell.js');
    const all = { OPENAI_API_KEY: 'sk-1', DEEPSEEK_API_KEY: 'sk-2', PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', GH_TOKEN: 't', AWS_SECRET_ACCESS_KEY: 'a', ANTHROPIC_AUTH_TOKEN: 'b', GITHUB_TOKEN: 'c', MY_VAR: 'v' };
    expect(shellEnvironment(all)).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8' });
    expect(shellEnvironment(all, ['MY_VAR'])).toEqual({ PATH: '/bin', HOME: '/h', LANG: 'C.UTF-8', MY_VAR: 'v' });
  });
});

describe('background jobs (issue 15, Ctrl-B)', () => {
  it('a moved command answers at once, goes on past the run\'s cancel and timeout, is read and stopped with shell_output', async () => {
    const { ShellJobs, shellOutputTool } = await import('../../src/core/tools/builtin/index.js');
    const jobs = new ShellJobs();
    const shell = shellTool({ workspaceRoot: sb.root, sandbox: 'off', jobs, timeoutMs: 1500 });
    const ac = new AbortController();
    const call = run(shell, { command: 'echo one; sleep 1; echo two; sleep 30' }, fakeCtx({ signal: ac.signal, callId: 'c_bg' }));
    await waitFor(() => jobs.foreground === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(jobs.background()).toEqual(['bg1']);
    const answered = await call;
    expect(answered.content).toMatch(/^one\n\[The person moved this command to the background as job bg1/);
    ac.abort(); // the turn ends or is cancelled: the job is no longer the run's
    await new Promise((r) => setTimeout(r, 2000)); // past the 1.5 s foreground timeout
    const out = shellOutputTool(jobs);
    expect((await run(out, { job: 'bg1' })).content).toBe('job bg1: running\ntwo');
    expect((await run(out, { job: 'bg1' })).content).toBe('job bg1: running\n(no new output)');
    expect((await run(out, { job: 'bg1', stop: true })).content).toMatch(/^job bg1: exited with code 137 \(stopped\)/);
    expect(await run(out, { job: 'bg9' })).toEqual({ content: "no background job 'bg9' (jobs: bg1)", isError: true });
  });

  it('says the command can go to the background only once Ctrl-B would move it (not while it starts)', async () => {
    const { ShellJobs } = await import('../../src/core/tools/builtin/index.js');
    const { isToolOutputEvent } = await import('../../src/core/tools/builtin/tool-output.js');
    const jobs = new ShellJobs();
    const offered: number[] = [];
    const emit: ToolContext['emit'] = (e) => {
      const custom = e.output?.custom;
      // What a person sees when the notice arrives: how many commands Ctrl-B would move right then.
      if (isToolOutputEvent(custom) && custom.background) offered.push(jobs.foreground);
    };
    const shell = shellTool({ workspaceRoot: sb.root, sandbox: 'off', jobs });
    const call = run(shell, { command: 'sleep 30' }, fakeCtx({ callId: 'c_offer', emit }));
    try {
      await waitFor(() => offered.length === 1);
      expect(offered).toEqual([1]);
      expect(jobs.background()).toEqual(['bg1']);
      await call;
    } finally {
      jobs.background();
      jobs.close();
    }
    // Without jobs nothing can be moved, so nothing is offered.
    const plain: unknown[] = [];
    await run(shellTool({ workspaceRoot: sb.root, sandbox: 'off' }), { command: 'echo hi' }, fakeCtx({ emit: (e) => void plain.push(e.output?.custom) }));
    expect(plain.filter((c) => isToolOutputEvent(c) && c.background)).toEqual([]);
  });

  it('close() stops what still runs; without a move the call is an ordinary one', async () => {
    const { ShellJobs } = await import('../../src/core/tools/builtin/index.js');
    const jobs = new ShellJobs();
    const shell = shellTool({ workspaceRoot: sb.root, sandbox: 'off', jobs });
    expect((await run(shell, { command: 'echo plain' })).content).toBe('plain\nexit code: 0');
    expect(jobs.foreground).toBe(0);
    const call = run(shell, { command: 'sleep 30' }, fakeCtx({ callId: 'c2' }));
    await waitFor(() => jobs.foreground === 1);
    jobs.background();
    await call;
    expect(jobs.list()).toEqual([{ id: 'bg1', command: 'sleep 30', running: true }]);
    jobs.close();
    await waitFor(() => !jobs.list()[0]!.running);
  });
});
