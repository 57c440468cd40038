import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, sessionIdOf, systemOf, tempDir, tempHome, textOf, toolsOf, useServer, writeAgentsFile } from '../cli/helpers.js';
import type { RecordedRequest } from '../support/openai-server.js';

// Issue 18: agents as tools in agents.yaml, deep agents (todos, parallel tasks, approvals inside
// tasks), AGENTS.md and skills, all over the local OpenAI-compatible server.
const server = useServer();

const MODEL = `models:\n  default: { model: gpt-test, base_url: "\${OPENAI_BASE_URL:-}" }\n`;
const lastUser = (r: RecordedRequest): string => [...r.body.messages].reverse().find((m: any) => m.role === 'user')?.content ?? '';
const lastTool = (r: RecordedRequest): any => [...r.body.messages].reverse().find((m: any) => m.role === 'tool');
const isDeep = (r: RecordedRequest) => systemOf(r).startsWith('You are an agent that carries out multi-step work');

/** Resolves when `n` callers have arrived, or after 5 s: a sequential run never meets the barrier. */
function barrier(n: number): () => Promise<boolean> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => (open = r));
  return async () => {
    if (++arrived >= n) open();
    return Promise.race([all.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
  };
}

describe('agents as tools in agents.yaml', () => {
  it('runs the agent in its own context, returns its text, and forwards its events when asked', async () => {
    const dir = tempDir();
    const file = writeAgentsFile(
      dir,
      `version: 1\n${MODEL}default: boss\nagents:\n  boss:\n    instruction: You are the boss.\n    tools: [{ agent: researcher, name: research, emit_internal_events: true }]\n  researcher:\n    description: Looks things up.\n    instruction: You are the researcher.\n`,
    );
    server().onRequest((r) => {
      if (systemOf(r).startsWith('You are the researcher')) return { content: 'The answer is 42.' };
      if (lastTool(r)) return { content: `Boss says: ${lastTool(r).content}` };
      return { toolCalls: [{ name: 'research', arguments: { request: 'find the answer' } }] };
    });
    const r = await expectExit(['run', '--agents', file, '--json', 'what is the answer?'], 0, { env: serverEnv(server(), 'k-1234', tempHome()), cwd: dir });
    const [first, inner, last] = server().chatRequests;
    expect(toolsOf(first)).toEqual(['research']);
    expect(first.body.tools[0].function.description).toBe('Looks things up.');
    // A fresh context: the researcher sees only the request, not the boss's conversation.
    expect(inner.body.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['system', 'You are the researcher.'],
      ['user', 'find the answer'],
    ]);
    expect(lastTool(last).content).toBe('The answer is 42.');
    expect(ofType(r.lines, 'done')[0].output).toBe('Boss says: The answer is 42.');
    const forwarded = ofType(r.lines, 'message').filter((m) => m.agent === 'researcher');
    expect(forwarded.map((m) => [m.runPath, m.content])).toEqual([[['boss', 'researcher'], 'The answer is 42.']]);
  });
});

describe('type: deep', () => {
  const deepFile = (dir: string, extra = '') =>
    writeAgentsFile(
      dir,
      `version: 1\n${MODEL}default: lead\nagents:\n  lead:\n    type: deep\n    description: Leads.\n    sub_agents: [worker]\n${extra}  worker:\n    description: Does one job with the shell.\n    instruction: You are the worker.\n    tools: [shell]\n`,
    );

  it('writes and updates todos, runs two tasks in parallel, and keeps the list in the session', async () => {
    const dir = tempDir();
    const file = deepFile(dir);
    const meet = barrier(2);
    server().onRequest(async (r) => {
      if (systemOf(r).startsWith('You are a sub-agent doing one task') || systemOf(r).startsWith('You are the worker')) {
        const together = await meet();
        return { content: `${lastUser(r)}: done${together ? '' : ' (alone)'}` };
      }
      const calls = r.body.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.function.name));
      if (!calls.includes('write_todos')) return { toolCalls: [{ name: 'write_todos', arguments: { todos: [{ content: 'Split the work', status: 'in_progress' }, { content: 'Merge', status: 'pending' }] } }] };
      if (!calls.includes('task'))
        return {
          toolCalls: [
            { name: 'task', arguments: { subagent: 'worker', description: 'job one' } },
            { name: 'task', arguments: { subagent: 'general-purpose', description: 'job two' } },
          ],
        };
      if (calls.filter((c: string) => c === 'write_todos').length === 1) return { toolCalls: [{ name: 'write_todos', arguments: { todos: [{ content: 'Split the work', status: 'completed' }, { content: 'Merge', status: 'completed' }] } }] };
      return { content: 'All merged.' };
    });
    const home = tempHome();
    const env = serverEnv(server(), 'k-1234', home);
    const r = await expectExit(['run', '--agents', file, '--json', 'do both jobs'], 0, { env, cwd: dir });
    const deepRequest = server().chatRequests.find(isDeep)!;
    expect(toolsOf(deepRequest).sort()).toEqual(['edit_file', 'grep', 'list_dir', 'read_file', 'shell', 'shell_output', 'task', 'write_file', 'write_todos']);
    expect(deepRequest.body.tools.find((t: any) => t.function.name === 'task').function.description).toContain('- worker: Does one job with the shell.');
    // Both tasks met at the barrier: they ran at the same time.
    const results = ofType(r.lines, 'tool_result').filter((t) => t.name === 'task').map((t) => t.content).sort();
    expect(results).toEqual(['job one: done', 'job two: done']);
    const todos = ofType(r.lines, 'todos');
    expect(todos.map((t) => t.todos.map((x: any) => x.status))).toEqual([['in_progress', 'pending'], ['completed', 'completed']]);
    const show = await expectExit(['sessions', 'show', sessionIdOf(r), '--json'], 0, { env, cwd: dir });
    expect(JSON.parse(show.stdout).todos).toEqual([{ content: 'Split the work', status: 'completed' }, { content: 'Merge', status: 'completed' }]);
  });

  it('an approval inside a task stops the run with its full address; adk resume answers it and never re-runs the finished task', async () => {
    const dir = tempDir();
    const file = deepFile(dir);
    let quickRuns = 0;
    server().onRequest((r) => {
      const sys = systemOf(r);
      if (sys.startsWith('You are the worker')) {
        if (lastTool(r)) return { content: `worker: ${lastTool(r).content.trim().split('\n')[0]}` };
        return { toolCalls: [{ name: 'shell', arguments: { command: 'echo built > out.txt && cat out.txt' } }] };
      }
      if (sys.startsWith('You are a sub-agent doing one task')) {
        quickRuns++;
        return { content: 'quick job done' };
      }
      const calls = r.body.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.function.name));
      if (!calls.includes('task'))
        return {
          toolCalls: [
            { name: 'task', arguments: { subagent: 'worker', description: 'build it' } },
            { name: 'task', arguments: { subagent: 'general-purpose', description: 'quick job' } },
          ],
        };
      return { content: `Finished: ${r.body.messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content).join(' | ')}` };
    });
    const env = { ...serverEnv(server(), 'k-1234', tempHome()), ADK_SHELL_SANDBOX: 'off' };
    const first = await expectExit(['run', '--agents', file, '--json', 'build and do the quick job'], 3, { env, cwd: dir });
    const interrupt = ofType(first.lines, 'interrupt')[0];
    expect(interrupt.interrupts).toHaveLength(1);
    const [ask] = interrupt.interrupts;
    expect(ask).toMatchObject({ kind: 'approval', tool: 'shell' });
    expect(ask.address).toMatch(/^agent:lead;tool:task:[\w.-]+;agent:worker;tool:shell:[\w.-]+$/);
    expect(quickRuns).toBe(1);
    const id = sessionIdOf(first);
    const second = await expectExit(['resume', id, '--approve', '--json'], 0, { env, cwd: dir });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('built\n');
    expect(quickRuns).toBe(1);
    expect(ofType(second.lines, 'done')[0].output).toBe('Finished: worker: built | quick job done');
  });
});

describe('AGENTS.md and skills', () => {
  it('adds AGENTS.md and its imports to the instruction, refusing an import outside the workspace', async () => {
    const root = tempDir();
    const dir = join(root, 'ws');
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(root, 'secret.md'), 'TOP SECRET OUTSIDE');
    writeFileSync(join(dir, 'docs', 'style.md'), 'Use tabs, never spaces.');
    writeFileSync(join(dir, 'AGENTS.md'), '# House rules\nRun `make check` before you finish.\nSee @docs/style.md for style.\nAlso @../secret.md please.\nPing @alice when done.\nKeep {greeting} as written.\n');
    const file = writeAgentsFile(
      dir,
      `version: 1\n${MODEL}default: flow\nagents:\n  flow: { type: sequential, sub_agents: [greeter, helper] }\n  greeter:\n    instruction: You greet.\n    output_key: greeting\n    agents_md: false\n  helper:\n    instruction: "You help. The greeting was: {greeting}"\n  quiet:\n    instruction: You are quiet.\n    agents_md: false\n`,
    );
    server().onRequest(() => ({ content: 'ok' }));
    const env = serverEnv(server(), 'k-1234', tempHome());
    await expectExit(['run', '--agents', file, 'hi'], 0, { env, cwd: dir });
    expect(systemOf(server().chatRequests[0])).toBe('You greet.');
    const system = systemOf(server().chatRequests[1]);
    // The agent's own placeholders are filled; AGENTS.md's braces are the person's text and stay.
    expect(system.startsWith('You help. The greeting was: ok')).toBe(true);
    expect(system).toContain('Keep {greeting} as written.');
    expect(system).toContain('# Project instructions (AGENTS.md)');
    expect(system).toContain('Run `make check` before you finish.');
    expect(system).toContain('See Use tabs, never spaces. for style.');
    expect(system).not.toContain('TOP SECRET');
    expect(system).toMatch(/Also \[@\.\.\/secret\.md not imported: .*outside the workspace.*\] please\./);
    expect(system).toContain('Ping @alice when done.');
    await expectExit(['run', '--agents', file, '--agent', 'quiet', 'hi'], 0, { env, cwd: dir });
    expect(systemOf(server().chatRequests[2])).toBe('You are quiet.');
  });

  // Issue 48: a Claude Code user's CLAUDE.md was in none of the requests. Now CLAUDE.md (with its
  // imports), CLAUDE.local.md and ~/.claude/CLAUDE.md are read beside AGENTS.md.
  it("reads Claude Code's CLAUDE.md, CLAUDE.local.md and ~/.claude/CLAUDE.md beside AGENTS.md", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'AGENTS.md'), 'Agents rule: be brief.\n');
    writeFileSync(join(dir, 'CLAUDE.md'), 'Claude rule: run npm test.\nStyle: @docs/style.md\n');
    writeFileSync(join(dir, 'docs', 'style.md'), 'two spaces');
    writeFileSync(join(dir, 'CLAUDE.local.md'), 'Local rule: my sandbox URL is http://localhost:3000.\n');
    const personHome = tempDir();
    mkdirSync(join(personHome, '.claude'));
    writeFileSync(join(personHome, '.claude', 'CLAUDE.md'), 'Personal rule: answer in English.\n');
    server().onRequest(() => ({ content: 'ok' }));
    await expectExit(['run', 'hi'], 0, { env: { ...serverEnv(server(), 'k-1234', tempHome()), HOME: personHome }, cwd: dir });
    const system = systemOf(server().chatRequests[0]);
    for (const line of ['# Project instructions (AGENTS.md)', 'Agents rule: be brief.', '# Project instructions (CLAUDE.md)', 'Claude rule: run npm test.', 'Style: two spaces', '# Project instructions (CLAUDE.local.md)', 'Local rule:', 'Personal rule: answer in English.']) {
      expect(system, line).toContain(line);
    }
  });

  it('lists the skills in the instruction and loads one with the skill tool', async () => {
    const dir = tempDir();
    const skill = join(dir, '.adk', 'skills', 'release');
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: release\ndescription: How to cut a release of this project.\n---\n# Releasing\n1. Bump the version.\n2. Read checklist.md.\n');
    writeFileSync(join(skill, 'checklist.md'), '- tag it\n- push it\n');
    const home = tempHome();
    const personal = join(home, 'skills', 'haiku');
    mkdirSync(personal, { recursive: true });
    writeFileSync(join(personal, 'SKILL.md'), '---\nname: haiku\ndescription: Answer in a haiku.\n---\nFive, seven, five.\n');
    const file = writeAgentsFile(dir, `version: 1\n${MODEL}agents:\n  helper:\n    instruction: You help.\n`);
    server().onRequest((r) => {
      const t = lastTool(r);
      if (!t) return { toolCalls: [{ name: 'skill', arguments: { name: 'release' } }] };
      if (!t.content.includes('tag it')) return { toolCalls: [{ name: 'skill', arguments: { name: 'release', file: 'checklist.md' } }] };
      return { content: 'released' };
    });
    const r = await expectExit(['run', '--agents', file, '--json', 'cut a release'], 0, { env: serverEnv(server(), 'k-1234', home), cwd: dir });
    const [first, second, third] = server().chatRequests;
    expect(systemOf(first)).toContain('# Skills');
    expect(systemOf(first)).toContain('- release: How to cut a release of this project.');
    expect(systemOf(first)).toContain('- haiku: Answer in a haiku.');
    expect(toolsOf(first)).toContain('skill');
    expect(lastTool(second).content).toContain('# Releasing\n1. Bump the version.');
    expect(lastTool(second).content).toContain('checklist.md');
    expect(lastTool(second).content).not.toContain('description:');
    expect(lastTool(third).content).toBe('- tag it\n- push it\n');
    expect(ofType(r.lines, 'done')[0].output).toBe('released');
    expect(textOf(first)).not.toContain('Five, seven, five.');
  });

  it('ignores a workspace skills folder that links out of the workspace', async () => {
    const root = tempDir();
    const outside = join(root, 'outside', 'evil');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'SKILL.md'), '---\nname: evil\ndescription: Reads your keys.\n---\nbody\n');
    const dir = join(root, 'ws');
    mkdirSync(join(dir, '.adk'), { recursive: true });
    symlinkSync(join(root, 'outside'), join(dir, '.adk', 'skills'));
    const file = writeAgentsFile(dir, `version: 1\n${MODEL}agents:\n  helper:\n    instruction: You help.\n`);
    server().onRequest(() => ({ content: 'ok' }));
    await expectExit(['run', '--agents', file, 'hi'], 0, { env: serverEnv(server(), 'k-1234', tempHome()), cwd: dir });
    expect(systemOf(server().chatRequests[0])).toBe('You help.');
    expect(toolsOf(server().chatRequests[0])).not.toContain('skill');
  });
});
