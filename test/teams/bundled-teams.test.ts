import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, sessionIdOf, systemOf, tempDir, tempHome, textOf, toolMessagesOf, toolsOf, useServer } from '../cli/helpers.js';
import { scriptTeam, speakers } from './team-script.js';
import { allowInProject } from '../support/cli.js';

// Issue 5, Must show 3: each bundled team through `adk run --agent <team> --json`, over the openai
// SDK against the local server, checking agents, run paths, transfers and tool calls.
const server = useServer();

let cwd: string;
let home: string;
beforeEach(() => {
  cwd = tempDir('adk-team-cwd-');
  home = tempHome();
  writeFileSync(join(cwd, 'notes.txt'), 'adk notes: the team reads this file.\n');
});
// The researchers fetch from the local test server: loopback is refused unless allowed.
const opts = () => ({ env: { ...serverEnv(server(), 'test-key-123456', home), ADK_FETCH_ALLOW_HOSTS: '127.0.0.1' }, cwd });
const runTeam = (team: string, prompt: string, code: number) => expectExit(['run', '--agent', team, '--json', prompt], code, opts());
const byAgent = (lines: any[], type: string, agent: string) => ofType(lines, type).filter((l) => l.agent === agent);

describe('bundled teams against an OpenAI-compatible server', () => {
  it('assistant: file tools in one agent', async () => {
    const { calls } = scriptTeam(server(), {
      assistant: ({ ownToolResults }) =>
        ownToolResults === 0
          ? { toolCalls: [{ id: 'c_ls', name: 'list_dir', arguments: { path: '.' } }, { id: 'c_rd', name: 'read_file', arguments: { path: 'notes.txt' } }] }
          : ownToolResults === 2
            ? { toolCalls: [{ id: 'c_wr', name: 'write_file', arguments: { path: 'out/summary.txt', content: 'summary of notes\n' } }] }
            : { content: 'I read notes.txt and wrote out/summary.txt.' },
    });
    // The assistant asks before writing a file (issue 15): the approval shows the diff of what it would write.
    const asked = await runTeam('assistant', 'summarise my notes into out/summary.txt', 3);
    const [stop] = ofType(asked.lines, 'interrupt');
    expect(stop.interrupts).toMatchObject([{ kind: 'approval', tool: 'write_file' }]);
    expect(stop.interrupts[0].diff).toContain('+++ b/out/summary.txt');
    expect(stop.interrupts[0].diff).toContain('+summary of notes');
    expect(existsSync(join(cwd, 'out/summary.txt'))).toBe(false);
    const r = await expectExit(['resume', sessionIdOf(asked), '--approve', '--json'], 0, opts());
    expect(asked.lines[0]).toMatchObject({ type: 'session', agent: 'assistant' });
    expect(calls).toEqual(['assistant', 'assistant', 'assistant']);
    expect(ofType(asked.lines, 'tool_call').map((c) => c.name)).toEqual(['list_dir', 'read_file', 'write_file']);
    const results = [...ofType(asked.lines, 'tool_result'), ...ofType(r.lines, 'tool_result')];
    // The two parallel calls report in completion order, whichever finishes first; the write comes after both.
    expect(results.slice(0, 2).map((x) => [x.id, x.isError]).sort()).toEqual([
      ['c_ls', false],
      ['c_rd', false],
    ]);
    expect([results[2].id, results[2].isError]).toEqual(['c_wr', false]);
    const byId = (id: string) => results.find((x) => x.id === id)!;
    expect(byId('c_ls').content).toContain('notes.txt');
    expect(byId('c_rd').content).toContain('adk notes: the team reads this file.');
    for (const l of [...ofType(asked.lines, 'message'), ...ofType(r.lines, 'message'), ...results]) expect(l).toMatchObject({ agent: 'assistant', runPath: ['assistant'] });
    expect(ofType(r.lines, 'transfer')).toEqual([]);
    expect(readFileSync(join(cwd, 'out/summary.txt'), 'utf8')).toBe('summary of notes\n');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'I read notes.txt and wrote out/summary.txt.' });
    // The assistant is offered its tools, with shell among them.
    expect(toolsOf(server().chatRequests[0]).sort()).toEqual([
      'ask_user', 'current_time', 'edit_file', 'grep', 'list_dir', 'read_file', 'read_tool_result', 'shell', 'shell_output', 'write_file',
    ]);
  });

  it('research: coordinator hands over, the planner has the plan reviewed, researchers work in parallel, the reporter reports', async () => {
    const plan = '1. Look up what the server offers\n2. Look at the local notes';
    const steps = ['Look up what the server offers', 'Look at the local notes'];
    const { calls, requestsBy } = scriptTeam(server(), {
      research: () => ({ toolCalls: [{ id: 'c_tr', name: 'transfer_to_agent', arguments: { agent_name: 'research_team' } }] }),
      research_planner: ({ ownToolResults }) =>
        ownToolResults === 0 ? { toolCalls: [{ id: 'c_ask', name: 'review_plan', arguments: { steps } }] } : { content: plan },
      web_researcher: ({ ownToolResults }) =>
        ownToolResults === 0
          ? { toolCalls: [{ id: 'c_web', name: 'fetch_url', arguments: { url: `${server().url}/models` } }] }
          : { content: `- WEB-FINDING: the server lists test-model (${server().url}/models)`, chunkDelayMs: 5 },
      file_researcher: ({ ownToolResults }) =>
        ownToolResults === 0 ? { toolCalls: [{ id: 'c_ls', name: 'list_dir', arguments: { path: '.' } }] } : { content: '- FILE-FINDING: notes.txt holds the notes', chunkDelayMs: 5 },
      reporter: () => ({ content: '# Report\n\nThe server offers test-model; notes.txt holds the notes.' }),
    });

    const r = await runTeam('research', 'research what this server offers', 3);
    const id = sessionIdOf(r);
    expect(r.lines[0]).toMatchObject({ agent: 'research' });
    expect(calls).toEqual(['research', 'research_planner']);
    expect(ofType(r.lines, 'transfer')).toEqual([expect.objectContaining({ agent: 'research', runPath: ['research'], to: 'research_team' })]);
    expect(byAgent(r.lines, 'tool_call', 'research_planner')).toEqual([
      expect.objectContaining({ name: 'review_plan', id: 'c_ask', runPath: ['research', 'research_team', 'research_planner'] }),
    ]);
    // The plan-review screen, not a free-text question (issue 15).
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'plan_review', plan: steps, address: 'agent:research;agent:research_team;agent:research_planner;tool:review_plan:c_ask' });
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'interrupted' });

    const a = await expectExit(['resume', id, '--approve', '--json'], 0, opts());
    // Nothing before the question runs again: the coordinator is not called a second time.
    expect(calls.slice(2).filter((c) => c === 'research')).toEqual([]);
    expect(calls.slice(2, 3)).toEqual(['research_planner']);
    expect(calls.slice(3, 7).sort()).toEqual(['file_researcher', 'file_researcher', 'web_researcher', 'web_researcher']);
    expect(calls.slice(7)).toEqual(['reporter']);
    const accepted = `The user accepted the plan:\n${plan}`;
    expect(byAgent(a.lines, 'tool_result', 'research_planner')).toEqual([expect.objectContaining({ id: 'c_ask', content: accepted, isError: false })]);
    expect(toolMessagesOf(requestsBy('research_planner')[1])[0]).toMatchObject({ tool_call_id: 'c_ask', content: accepted });

    const seq = ['research', 'research_team', 'research_planner'];
    expect(byAgent(a.lines, 'message', 'research_planner').at(-1)).toMatchObject({ content: plan, runPath: seq });
    expect(byAgent(a.lines, 'tool_call', 'web_researcher')).toEqual([expect.objectContaining({ name: 'fetch_url', runPath: [...seq, 'researchers', 'web_researcher'] })]);
    expect(byAgent(a.lines, 'tool_call', 'file_researcher')).toEqual([expect.objectContaining({ name: 'list_dir', runPath: [...seq, 'researchers', 'file_researcher'] })]);
    const [web] = byAgent(a.lines, 'tool_result', 'web_researcher');
    expect(web).toMatchObject({ name: 'fetch_url', isError: false });
    expect(web.content).toContain('test-model');
    expect(byAgent(a.lines, 'tool_result', 'file_researcher')[0].content).toContain('notes.txt');
    expect(byAgent(a.lines, 'message', 'reporter')).toEqual([expect.objectContaining({ runPath: [...seq, 'researchers', 'reporter'] })]);
    expect(speakers(a.lines).at(-1)).toBe('reporter');
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: '# Report\n\nThe server offers test-model; notes.txt holds the notes.' });

    // output_key values reach later agents' instructions.
    for (const agent of ['web_researcher', 'file_researcher']) expect(systemOf(requestsBy(agent)[0])).toContain(plan);
    const reporterSystem = systemOf(requestsBy('reporter')[0]);
    expect(reporterSystem).toContain(plan);
    expect(reporterSystem).toContain('WEB-FINDING');
    expect(reporterSystem).toContain('FILE-FINDING');
    // Each researcher sees only its own tools.
    expect(toolsOf(requestsBy('web_researcher')[0])).toEqual(['fetch_url']);
    expect(toolsOf(requestsBy('file_researcher')[0]).sort()).toEqual(['grep', 'list_dir', 'read_file']);
    expect(server().requests.some((q) => q.method === 'GET' && q.path === '/v1/models')).toBe(true);
  });

  it('coder: the tech lead routes planner, writer (shell approval) and reviewer, then summarises', async () => {
    const said = (text: string, agent: string) => new RegExp(`\\[${agent}\\] said`).test(text);
    const { calls } = scriptTeam(server(), {
      tech_lead: ({ request }) => {
        const text = textOf(request);
        const next = ['code_planner', 'code_writer', 'code_reviewer'].find((a) => !said(text, a));
        return next ? { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: next } }] } : { content: 'Done: hello.txt was written, checked and reviewed.' };
      },
      code_planner: ({ ownToolResults }) => (ownToolResults === 0 ? { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] } : { content: 'Plan: create hello.txt with a greeting.' }),
      code_writer: ({ ownToolResults }) =>
        [
          { toolCalls: [{ id: 'c_write', name: 'write_file', arguments: { path: 'hello.txt', content: 'hello from the coder\n' } }] },
          { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'cat hello.txt' } }] },
          { content: 'Implemented hello.txt and checked it with cat.' },
        ][ownToolResults],
      code_reviewer: ({ ownToolResults }) => (ownToolResults === 0 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] } : { content: 'LGTM' }),
    });

    // The person allowed file writes here: this test follows the routing and the shell approval.
    allowInProject(home, cwd, ['write_file', 'edit_file']);
    const r = await runTeam('coder', 'add a hello.txt', 3);
    const id = sessionIdOf(r);
    expect(calls).toEqual(['tech_lead', 'code_planner', 'code_planner', 'tech_lead', 'code_writer', 'code_writer']);
    expect(ofType(r.lines, 'transfer').map((t) => [t.agent, t.to])).toEqual([
      ['tech_lead', 'code_planner'],
      ['code_planner', 'tech_lead'],
      ['tech_lead', 'code_writer'],
    ]);
    expect(byAgent(r.lines, 'tool_call', 'code_writer').at(-1)).toMatchObject({ name: 'shell', runPath: ['tech_lead', 'code_planner', 'tech_lead', 'code_writer'] });
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'approval', tool: 'shell', arguments: { command: 'cat hello.txt' } });
    expect(point.address).toMatch(/agent:code_writer;tool:shell:c_sh$/);
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('hello from the coder\n');

    const a = await expectExit(['resume', id, '--approve', '--json'], 0, opts());
    const [shell] = byAgent(a.lines, 'tool_result', 'code_writer');
    expect(shell).toMatchObject({ id: 'c_sh', isError: false });
    expect(shell.content).toContain('hello from the coder');
    expect(calls.slice(6)).toEqual(['code_writer', 'tech_lead', 'code_reviewer', 'code_reviewer', 'tech_lead']);
    expect(ofType(a.lines, 'transfer').map((t) => [t.agent, t.to])).toEqual([
      ['code_writer', 'tech_lead'],
      ['tech_lead', 'code_reviewer'],
      ['code_reviewer', 'tech_lead'],
    ]);
    expect(byAgent(a.lines, 'message', 'code_reviewer').map((m) => m.content)).toContain('LGTM');
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Done: hello.txt was written, checked and reviewed.' });
    // Only the supervisor can transfer; workers are sent back automatically.
    expect(toolsOf(server().chatRequests[0])).toContain('transfer_to_agent');
    expect(toolsOf(server().chatRequests[1])).not.toContain('transfer_to_agent');
  });

  it('pipeline: outliner then drafter, the outline passed through output_key', async () => {
    const outline = '1. OUTLINE-INTRO\n2. OUTLINE-BODY\n3. OUTLINE-END';
    const { calls, requestsBy } = scriptTeam(server(), {
      outliner: () => ({ content: outline }),
      drafter: () => ({ content: 'A short text with an intro, a body and an end.' }),
    });
    const r = await runTeam('pipeline', 'write a short text about adk', 0);
    expect(r.lines[0]).toMatchObject({ agent: 'pipeline' });
    expect(calls).toEqual(['outliner', 'drafter']);
    expect(ofType(r.lines, 'message').map((m) => [m.agent, m.runPath])).toEqual([
      ['outliner', ['pipeline', 'outliner']],
      ['drafter', ['pipeline', 'outliner', 'drafter']],
    ]);
    expect(ofType(r.lines, 'transfer')).toEqual([]);
    expect(ofType(r.lines, 'tool_call')).toEqual([]);
    expect(systemOf(requestsBy('drafter')[0])).toContain(outline);
    expect(textOf(requestsBy('drafter')[0])).toContain('write a short text about adk');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'A short text with an intro, a body and an end.' });
  });

  it('refine: writer and critic loop until the critic calls exit', async () => {
    let drafts = 0;
    const { calls, requestsBy } = scriptTeam(server(), {
      writer: () => ({ content: `DRAFT-${++drafts}: adk runs agent teams.` }),
      critic: ({ request }) =>
        systemOf(request).includes('DRAFT-1')
          ? { content: '- CRITIQUE: too short, add an example' }
          : { toolCalls: [{ name: 'exit', arguments: { final_result: 'DRAFT-2: adk runs agent teams. (final)' } }] },
    });
    const r = await runTeam('refine', 'write one sentence about adk', 0);
    expect(calls).toEqual(['writer', 'critic', 'writer', 'critic']);
    expect(speakers(r.lines)).toEqual(['writer', 'critic', 'writer', 'critic']);
    expect(ofType(r.lines, 'message').map((m) => m.runPath)).toEqual([
      ['refine', 'writer'],
      ['refine', 'writer', 'critic'],
      ['refine', 'writer', 'critic', 'writer'],
      ['refine', 'writer', 'critic', 'writer', 'critic'],
    ]);
    // The second draft is written with the critique in view; the critic reviews the newest draft.
    expect(textOf(requestsBy('writer')[1])).toContain('CRITIQUE: too short');
    expect(systemOf(requestsBy('critic')[1])).toContain('DRAFT-2');
    expect(ofType(r.lines, 'tool_call')).toEqual([expect.objectContaining({ agent: 'critic', name: 'exit' })]);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'DRAFT-2: adk runs agent teams. (final)' });
  });

  it('refine stops after max_iterations when the critic never exits', async () => {
    const { calls } = scriptTeam(server(), {
      writer: () => ({ content: 'another draft' }),
      critic: () => ({ content: '- still not good' }),
    });
    await runTeam('refine', 'write something', 0);
    expect(calls).toEqual(['writer', 'critic', 'writer', 'critic', 'writer', 'critic']);
    expect(existsSync(join(cwd, 'notes.txt'))).toBe(true);
  });
});
