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

  it('research: plan review (edited, then accepted), each step worked in order by its role with progress, the coder asks before shell, the report', async () => {
    const plan1 = { locale: 'en-US', has_enough_context: false, thought: 'Look it up.', title: 'What the server offers', steps: [{ need_search: true, title: 'List the models', description: 'Fetch the model list.', step_type: 'research' }] };
    const plan2 = { ...plan1, thought: 'Look it up, then count.', steps: [...plan1.steps, { need_search: false, title: 'Count the models', description: 'Count them with the shell.', step_type: 'processing' }] };
    let plans = 0;
    const { calls, requestsBy } = scriptTeam(server(), {
      research_coordinator: ({ ownToolResults }) =>
        ownToolResults === 0 ? { toolCalls: [{ id: 'c_hand', name: 'handoff_to_planner', arguments: { research_topic: 'what this server offers', locale: 'en-US' } }] } : { content: '' },
      // No search provider in the test's environment: the tool says so and the investigator goes on.
      background_investigator: ({ ownToolResults }) =>
        ownToolResults === 0 ? { toolCalls: [{ id: 'c_search', name: 'web_search', arguments: { query: 'what this server offers' } }] } : { content: '- BACKGROUND: no search provider' },
      research_planner: () => ({ content: JSON.stringify(plans++ === 0 ? plan1 : plan2) }),
      researcher: ({ ownToolResults }) =>
        ownToolResults === 0
          ? { toolCalls: [{ id: 'c_web', name: 'fetch_url', arguments: { url: `${server().url}/models` } }] }
          : { content: `- WEB-FINDING: the server lists test-model (${server().url}/models)`, chunkDelayMs: 5 },
      research_coder: ({ ownToolResults, request }) =>
        ownToolResults === 0
          ? { toolCalls: [{ id: 'c_sh', name: 'shell', arguments: { command: 'echo model count: $((0+1))' } }] }
          : { content: `CODE-RESULT: ${toolMessagesOf(request)[0].content.trim()}` },
      reporter: () => ({ content: '# Report\n\nThe server offers test-model (one model).\n\n## Key Citations\n\n- [models](http://x/models)' }),
    });

    const r = await runTeam('research', 'research what this server offers', 3);
    const id = sessionIdOf(r);
    expect(calls).toEqual(['research_coordinator', 'background_investigator', 'background_investigator', 'research_planner']);
    expect(byAgent(r.lines, 'tool_result', 'background_investigator')[0]).toMatchObject({ name: 'web_search', isError: true, content: expect.stringContaining('No search provider configured') });
    // The plan-review screen lists the plan's steps, each with its kind.
    const [first] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(first).toMatchObject({ kind: 'plan_review', plan: ['[research] List the models: Fetch the model list.'] });
    expect(first.message).toContain('What the server offers');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'interrupted' });
    // The planner saw the background investigation.
    expect(systemOf(requestsBy('research_planner')[0])).toContain('BACKGROUND: no search provider');

    // Asking for changes re-plans with the feedback (DeerFlow's [EDIT_PLAN]); nothing before the planner runs again.
    const edited = await expectExit(['resume', id, '--reject', '--reason', 'also count the models', '--json'], 3, opts());
    expect(calls.slice(4)).toEqual(['research_planner']);
    expect(textOf(requestsBy('research_planner')[1])).toContain('[EDIT_PLAN] also count the models');
    expect(ofType(edited.lines, 'interrupt')[0].interrupts[0]).toMatchObject({ kind: 'plan_review', plan: ['[research] List the models: Fetch the model list.', '[processing] Count the models: Count them with the shell.'] });

    // Accepted: the research step goes to the researcher, then the processing step to the coder, who asks before shell.
    const accepted = await expectExit(['resume', id, '--approve', '--json'], 3, opts());
    expect(calls.slice(5)).toEqual(['researcher', 'researcher', 'research_coder']);
    const [web] = byAgent(accepted.lines, 'tool_result', 'researcher');
    expect(web).toMatchObject({ name: 'fetch_url', isError: false });
    expect(web.content).toContain('test-model');
    expect(ofType(accepted.lines, 'interrupt')[0].interrupts).toMatchObject([{ kind: 'approval', tool: 'shell', arguments: { command: 'echo model count: $((0+1))' } }]);
    // The coder is given the step it works and the findings so far.
    expect(systemOf(requestsBy('research_coder')[0])).toContain('## Count the models');
    expect(systemOf(requestsBy('research_coder')[0])).toContain('WEB-FINDING');
    expect(systemOf(requestsBy('researcher')[0])).toContain('## List the models');

    const done = await expectExit(['resume', id, '--approve', '--json'], 0, opts());
    expect(calls.slice(8)).toEqual(['research_coder', 'reporter']);
    expect(byAgent(done.lines, 'tool_result', 'research_coder')[0]).toMatchObject({ name: 'shell', isError: false, content: expect.stringContaining('model count: 1') });
    expect(done.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: expect.stringMatching(/^# Report\n\nThe server offers test-model/) });
    // The reporter writes from every step's result.
    const reporterSystem = systemOf(requestsBy('reporter')[0]);
    expect(reporterSystem).toContain('WEB-FINDING');
    expect(reporterSystem).toContain('CODE-RESULT: model count: 1');

    // Progress, step by step, as todo lists: the step in progress, then the ones done.
    const progress = [...accepted.lines, ...done.lines].filter((l) => l.type === 'todos').map((l) => l.todos.map((t: any) => t.status).join(','));
    expect(progress).toEqual(['in_progress,pending', 'completed,in_progress', 'completed,in_progress', 'completed,completed']);
    expect(ofType(accepted.lines, 'todos')[0]).toMatchObject({ agent: 'research', todos: [{ content: '[research] List the models', activeForm: 'Researching: List the models' }, { content: '[processing] Count the models' }] });
    // Each role speaks under its own name, in the graph's order.
    expect(speakers([...r.lines, ...edited.lines, ...accepted.lines, ...done.lines])).toEqual(['research_coordinator', 'background_investigator', 'research_planner', 'researcher', 'research_coder', 'reporter']);
    // Each role sees only its own tools.
    expect(toolsOf(requestsBy('researcher')[0]).sort()).toEqual(['fetch_url', 'web_search']);
    expect(toolsOf(requestsBy('research_coordinator')[0])).toEqual(['handoff_to_planner']);
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
