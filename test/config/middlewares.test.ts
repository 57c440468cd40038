import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPowers, formatProblems, validateConfig, type ChatAgentConfig } from '../../src/core/config/index.js';
import { expectExit, ofType, tempHome, useServer } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';

const server = useServer();

describe('middlewares: in agents.yaml', () => {
  it('accepts summarize and reduce_tool_results, with options, and module middlewares (a trust power)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adk-mw-'));
    writeFileSync(path.join(dir, 'mw.js'), 'export default { name: "mine" }\n');
    const text = `version: 1
agents:
  a:
    middlewares:
      - summarize
      - { summarize: { threshold: 0.7, keep_turns: 2, instructions: keep paths } }
      - { reduce_tool_results: { max_chars: 5000 } }
      - { module: ./mw.js }
  b: {}
`;
    const file = path.join(dir, 'agents.yaml');
    writeFileSync(file, text);
    const r = validateConfig({ file }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    const a = r.config!.agents.get('a') as ChatAgentConfig;
    expect(a.middlewares?.map((m) => [m.kind, 'options' in m ? m.options : undefined])).toEqual([
      ['summarize', undefined],
      ['summarize', { threshold: 0.7, keepTurns: 2, instructions: 'keep paths' }],
      ['reduce_tool_results', { maxChars: 5000 }],
      ['module', undefined],
    ]);
    expect((r.config!.agents.get('b') as ChatAgentConfig).middlewares).toBeUndefined();
    expect(configPowers(r.config!, {}).map((p) => p.text)).toEqual(['imports middleware module ./mw.js into agent a']);
  });

  it('names file:line:col for every mistake, with a did-you-mean', () => {
    const text = `version: 1
agents:
  a:
    middlewares:
      - summarise
      - { summarize: { threshhold: 0.5 } }
      - { reduce_tool_results: { max_chars: 10 } }
      - { modul: ./x.js }
      - { module: ../outside.js }
      - 42
  w: { type: sequential, sub_agents: [a], middlewares: [summarize] }
`;
    const r = validateConfig({ text }, { env: {} });
    const shown = r.problems.map((p) => `${p.line}:${p.col} ${p.path} ${p.message}`);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^5:9 agents\.a\.middlewares\[0\] unknown middleware 'summarise' \(did you mean 'summarize'\?\)/),
        expect.stringMatching(/^6:24 agents\.a\.middlewares\[1\]\.summarize\.threshhold unknown option 'threshhold' of summarize \(did you mean 'threshold'\?\)/),
        expect.stringMatching(/^7:45 agents\.a\.middlewares\[2\]\.reduce_tool_results\.max_chars must be >= 1000/),
        expect.stringMatching(/^8:\d+ agents\.a\.middlewares\[3\] unknown middleware form with key 'modul' \(did you mean 'module'\?\)/),
        expect.stringMatching(/^9:\d+ agents\.a\.middlewares\[4\]\.module /),
        expect.stringMatching(/^10:9 agents\.a\.middlewares\[5\] expected a middleware, got an integer/),
        expect.stringMatching(/^11:\d+ agents\.w\.middlewares /),
      ]),
    );
  });

  it('a module middleware runs in adk run once the file is trusted, and never before', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adk-mw-run-'));
    writeFileSync(
      path.join(dir, 'mw.js'),
      `export default () => ({
  name: 'shout',
  beforeModel(ctx, state, request) {
    return { ...request, messages: [...request.messages, { role: 'user', content: 'ANSWER IN CAPITALS' }] };
  },
  wrapModel: (next, ctx) => async (messages, options) => {
    const reply = await next(messages, options);
    ctx.emit({ type: 'shouted', chars: reply.content.length });
    return reply;
  },
});
`,
    );
    const file = path.join(dir, 'agents.yaml');
    writeFileSync(file, 'version: 1\nagents:\n  a:\n    middlewares: [summarize, { module: ./mw.js }]\n');
    const home = tempHome();
    const env = { OPENAI_API_KEY: 'k-1234', OPENAI_BASE_URL: server().url, ADK_MODEL: 'gpt-test', ADK_HOME: home };
    const refused = await expectExit(['run', '--agents', file, '--json', 'hi'], 2, { env, cwd: dir });
    expect(refused.stderr).toContain('imports middleware module ./mw.js into agent a');
    expect(server().chatRequests).toHaveLength(0);
    trustAgentsFile(home, file);
    server().enqueue({ content: 'HELLO' });
    const r = await expectExit(['run', '--agents', file, '--json', 'hi'], 0, { env, cwd: dir });
    expect(ofType(r.lines, 'done')[0].output).toBe('HELLO');
    expect(server().chatRequests[0].body.messages.at(-1).content).toBe('ANSWER IN CAPITALS');
  });
});

describe('issue 18 keys in agents.yaml', () => {
  it('agent tools, deep agents and agents_md: file:line:col for each mistake', () => {
    const text = `version: 1
agents:
  a:
    description: A.
    tools:
      - { agent: reseacher }
      - { agent: silent }
      - { agent: b, nmae: x }
  b:
    description: B.
    tools: [{ agent: a }]
  silent: {}
  d:
    type: deep
    description: D.
    general_purpose: maybe
    sub_agents: [nobody]
    exit: true
  w: { type: sequential, sub_agents: [silent], agents_md: false }
`;
    const r = validateConfig({ text }, { env: {} });
    const shown = r.problems.map((p) => `${p.line}:${p.col} ${p.path} ${p.message}`);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^6:18 agents\.a\.tools\[0\]\.agent undefined agent 'reseacher'/),
        expect.stringMatching(/^7:18 agents\.a\.tools\[1\]\.agent agent 'silent' has no description, and a tool needs one/),
        expect.stringMatching(/^8:\d+ agents\.a\.tools\[2\]\.nmae unknown key 'nmae' in an agent tool \(did you mean 'name'\?\)/),
        expect.stringMatching(/^11:\d+ agents\.b\.tools\[0\] agent cycle through agent tools: (a -> b -> a|b -> a -> b)/),
        expect.stringMatching(/^16:22 agents\.d\.general_purpose /),
        expect.stringMatching(/^17:\d+ agents\.d\.sub_agents\[0\] undefined agent 'nobody'/),
        expect.stringMatching(/^18:\d+ agents\.d\.exit key 'exit' is not allowed on a deep agent/),
        expect.stringMatching(/^19:\d+ agents\.w\.agents_md key 'agents_md' is not allowed on a sequential agent/),
      ]),
    );
  });

  it('deep sub-agents need a description, never the built-in name, and no tool takes a reserved or used name', () => {
    const text = `version: 1
agents:
  d:
    type: deep
    description: D.
    sub_agents: [bare, general-purpose]
    tools: [grep, { agent: g, name: grep }, { agent: g, name: task }]
  bare: {}
  general-purpose: { description: Mine. }
  g: { description: G. }
`;
    const shown = validateConfig({ text }, { env: {} }).problems.map((p) => `${p.line}:${p.col} ${p.path} ${p.message}`);
    expect(shown).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^6:18 agents\.d\.sub_agents\[0\] sub-agent 'bare' has no description/),
        expect.stringMatching(/^6:24 agents\.d\.sub_agents\[1\] 'general-purpose' is the name of the deep agent's built-in sub-agent/),
        expect.stringMatching(/^7:\d+ agents\.d\.tools\[1\] two tools are named 'grep'/),
        expect.stringMatching(/^7:\d+ agents\.d\.tools\[2\] an agent tool cannot be named 'task'/),
      ]),
    );
  });

  it('builds a deep agent whose sub-agents share an agent tool (no false cycle)', async () => {
    const { createTeam } = await import('../../src/core/config/index.js');
    const { ScriptedChatModel } = await import('../../src/core/models/scripted.js');
    const text = 'version: 1\nagents:\n  d: { type: deep, description: D., sub_agents: [a, b] }\n  a: { description: A., tools: [{ agent: h }, { agent: b, name: ask_b }] }\n  b: { description: B., tools: [{ agent: h }] }\n  h: { description: H. }\n';
    const r = validateConfig({ text }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    const agent = await createTeam(r.config!, { model: () => new ScriptedChatModel([]), tools: async () => [] }, 'd');
    expect(agent.name).toBe('d');
  });

  it('a deep agent without tools gets the file and shell tools, shell asking first', () => {
    const r = validateConfig({ text: 'version: 1\nagents:\n  d: { type: deep, description: D. }\n' }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    const d = r.config!.agents.get('d') as { tools: Array<{ name: string }>; approval: string[]; generalPurpose: boolean; agentsMd: boolean };
    expect(d.tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'grep', 'shell']);
    expect(d).toMatchObject({ approval: ['shell'], generalPurpose: true, agentsMd: true });
  });
});
