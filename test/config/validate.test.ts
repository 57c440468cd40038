import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import {
  ConfigValidationError,
  formatProblems,
  loadConfigFile,
  parseConfig,
  validateConfig,
  type ChatAgentConfig,
  type PlanExecuteAgentConfig,
  type SupervisorAgentConfig,
} from '../../src/core/config/index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/config');
const VALID = path.join(FIXTURES, 'valid-full.yaml');

const ok = (text: string, env: Record<string, string> = {}) => {
  const r = validateConfig({ text }, { env });
  expect(r.problems, formatProblems(r.problems)).toEqual([]);
  expect(r.ok).toBe(true);
  return r.config!;
};

describe('a valid agents.yaml', () => {
  it('validates the full DESIGN §4 style example and normalizes it', async () => {
    const { config, file } = await loadConfigFile(VALID, { env: { ADK_MODEL: 'gpt-test' } });
    expect(file).toBe(VALID);
    expect(config.version).toBe(1);
    expect(config.dir).toBe(FIXTURES);
    expect(config.default).toBe('assistant');
    expect([...config.agents.keys()]).toEqual([
      'assistant', 'researcher', 'writer', 'critic', 'pipeline', 'scout', 'polish', 'editor',
      'fanout', 'a', 'b', 'team', 'lead', 'analyst', 'coder', 'deep',
    ]);
    expect(config.roots).toEqual(['assistant', 'pipeline', 'polish', 'fanout', 'team', 'deep']);

    // `${ADK_MODEL:-…}` took the variable; `${OPENAI_BASE_URL:-}` was empty, so it is left out.
    expect(config.models.get('default')).toEqual({ name: 'default', provider: 'openai', model: 'gpt-test', apiKeyEnv: 'OPENAI_API_KEY', fromEnvironment: false });
    expect(config.models.get('demo')).toEqual({ name: 'demo', provider: 'demo', fromEnvironment: false });
    expect(config.mcpServers.get('files')).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: {} });

    const assistant = config.agents.get('assistant') as ChatAgentConfig;
    expect(assistant).toMatchObject({
      type: 'chat',
      model: 'default',
      description: 'General helper.',
      instruction: 'You are a helpful assistant. Today is {Today}.',
      approval: ['shell'],
      subAgents: ['researcher'],
      disallowTransferToParent: false,
      exit: false,
      pos: { line: 9, col: 3 },
    });
    expect(assistant.parent).toBeUndefined();
    expect(assistant.tools.map((t) => t.kind === 'builtin' && t.name)).toEqual(['read_file', 'list_dir', 'shell', 'ask_user']);

    const researcher = config.agents.get('researcher') as ChatAgentConfig;
    expect(researcher.parent).toBe('assistant');
    expect(researcher.outputKey).toBe('findings');
    expect(researcher.tools).toEqual([
      { kind: 'builtin', name: 'fetch_url', pos: { line: 18, col: 13 } },
      { kind: 'mcp', server: 'files', pos: { line: 18, col: 24 } },
      { kind: 'module', path: './tools/weather.js', resolvedPath: path.join(FIXTURES, 'tools/weather.js'), exportName: 'weather', pos: { line: 18, col: 40 } },
    ]);

    expect(config.agents.get('writer')).toMatchObject({ model: 'demo', parent: 'pipeline' });
    expect(config.agents.get('critic')).toMatchObject({ exit: true, parent: 'polish' });
    expect(config.agents.get('polish')).toMatchObject({ type: 'loop', maxIterations: 3, subAgents: ['editor', 'critic'] });
    expect(config.agents.get('b')).toMatchObject({ returnDirectly: ['current_time'], approval: [] });
    const team = config.agents.get('team') as SupervisorAgentConfig;
    expect(team).toMatchObject({ type: 'supervisor', supervisor: 'lead', subAgents: ['analyst', 'coder'] });
    expect(config.agents.get('lead')!.parent).toBe('team');
    // `shell` asks for approval by default when the agent does not list `approval:` itself.
    expect((config.agents.get('coder') as ChatAgentConfig).approval).toEqual(['shell']);

    const deep = config.agents.get('deep') as PlanExecuteAgentConfig;
    expect(deep).toMatchObject({
      type: 'plan_execute',
      model: 'default',
      maxIterations: 10,
      planner: { model: 'default', review: true },
      executor: { model: 'default', approval: [] },
      replanner: { model: 'default' },
    });
    expect(deep.executor.tools.map((t) => t.kind === 'builtin' && t.name)).toEqual(['fetch_url']);
  });

  it('uses the environment for the default model when models.default is not defined', () => {
    const config = ok('version: 1\nagents:\n  solo: { instruction: Hi. }\n');
    expect(config.models.get('default')).toEqual({ name: 'default', provider: 'openai', fromEnvironment: true });
    expect((config.agents.get('solo') as ChatAgentConfig).model).toBe('default');
    expect(config.default).toBe('solo');
  });

  it('defaults `default` to the first root agent', () => {
    const config = ok('version: 1\nagents:\n  helper: { description: Helps., instruction: H. }\n  main: { description: Main., instruction: M., sub_agents: [helper] }\n');
    expect(config.default).toBe('main');
  });

  it('supports merge keys and aliases, keeping positions of the merged keys', () => {
    const text = [
      'version: 1',
      'agents:',
      '  base: &base { instruction: Shared., tools: [read_file, shel] }',
      '  one: { <<: *base, description: One. }',
    ].join('\n');
    const r = validateConfig({ text }, { env: {} });
    // The typo is reported twice (once per agent) at its one place in the text.
    expect(r.problems.map((p) => [p.path, p.line, p.col])).toEqual([
      ['agents.base.tools[1]', 3, 58],
      ['agents.one.tools[1]', 3, 58],
    ]);
    const fixed = ok(text.replace('shel]', 'shell]'));
    expect(fixed.agents.get('one')).toMatchObject({ description: 'One.', instruction: 'Shared.', approval: ['shell'] });
  });
});

describe('environment interpolation', () => {
  const text = (body: string) => `version: 1\nagents:\n  a:\n${body}`;

  it('substitutes ${VAR} and ${VAR:-default}, and $${ is a literal', () => {
    const config = ok(
      text('    instruction: "Hello ${WHO}, from ${PLACE:-home}; keep $${LITERAL} as is"\n    description: ${EMPTY:-fallback}\n'),
      { WHO: 'Ada', EMPTY: '' },
    );
    const a = config.agents.get('a') as ChatAgentConfig;
    expect(a.instruction).toBe('Hello Ada, from home; keep ${LITERAL} as is');
    expect(a.description).toBe('fallback');
  });

  it('turns an unquoted ${VAR} into a number like any plain scalar', () => {
    const config = ok(text('    max_iterations: ${MAX_IT}\n'), { MAX_IT: '7' });
    expect((config.agents.get('a') as ChatAgentConfig).maxIterations).toBe(7);
  });

  it('reports each unset variable with the position of its reference', () => {
    const r = validateConfig({ text: text('    instruction: "x ${ONE} y ${TWO}"\n    output_key: ${THREE}\n') }, { env: {} });
    expect(r.problems.map((p) => [p.line, p.col, p.path, p.message])).toEqual([
      [4, 21, 'agents.a.instruction', "environment variable 'ONE' is not set"],
      [4, 30, 'agents.a.instruction', "environment variable 'TWO' is not set"],
      [5, 17, 'agents.a.output_key', "environment variable 'THREE' is not set"],
    ]);
  });

  it('rejects unterminated and malformed references', () => {
    const r = validateConfig({ text: text('    instruction: "a ${OPEN"\n    description: "${1BAD}"\n') }, { env: {} });
    expect(r.problems.map((p) => p.message)).toEqual(["unterminated '${' in value", "invalid variable reference '${1BAD}'"]);
  });
});

describe('all problems at once', () => {
  it('returns each of three distinct problems with its position', () => {
    const r = validateConfig({ file: path.join(FIXTURES, 'three-errors.yaml') }, { env: {} });
    expect(r.ok).toBe(false);
    expect(formatProblems(r.problems).split('\n').filter((l) => !l.startsWith('  hint:'))).toEqual([
      `${path.join(FIXTURES, 'three-errors.yaml')}:5:24 agents.assistant.tools[1]: unknown tool 'shel' (did you mean 'shell'?)`,
      `${path.join(FIXTURES, 'three-errors.yaml')}:6:18 agents.assistant.sub_agents[0]: undefined agent 'helper'`,
      `${path.join(FIXTURES, 'three-errors.yaml')}:8:5 agents.coder.instructions: unknown key 'instructions' (did you mean 'instruction'?)`,
    ]);
  });

  it('formats a problem as file:line:col path: message', () => {
    const r = validateConfig({ text: 'version: 1\nagents:\n  coder:\n    tools: [shel]\n', file: 'agents.yaml' }, { env: {} });
    expect(formatProblems(r.problems)).toBe(
      "agents.yaml:4:13 agents.coder.tools[0]: unknown tool 'shel' (did you mean 'shell'?)\n" +
        '  hint: built-in tools: read_file, write_file, edit_file, list_dir, grep, shell, shell_output, fetch_url, web_search, ask_user, review_plan, current_time, handoff_to_planner',
    );
  });
});

describe('hostile or odd input', () => {
  it('rejects a billion-laughs alias bomb quickly', { timeout: 5_000 }, () => {
    const levels = ['  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 12; i++) levels.push(`  l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]`);
    const text = `version: 1\nagents:\n  bomb:\n    instruction: Hi.\n    tools:\n${levels.map((l) => `  ${l.replace(/^ {2}l\d+: /, '  - ')}`).join('\n')}\n`;
    const r = validateConfig({ text }, { env: {} });
    expect(r.ok).toBe(false);
    const bomb = r.problems.find((p) => p.message.includes('alias bomb'));
    expect(bomb).toBeDefined();
    expect(bomb!.line).toBeGreaterThan(5);
  });

  it('rejects a recursive alias and an unknown alias', () => {
    const r = validateConfig({ text: 'version: 1\nagents:\n  a: &x { sub_agents: [*x] }\n  b: { instruction: *nope }\n' }, { env: {} });
    expect(r.problems.map((p) => [p.line, p.col, p.message])).toEqual([
      [3, 24, "alias '*x' refers to itself"],
      [4, 21, "unknown alias '*nope'"],
    ]);
  });

  it('never throws on bad input', () => {
    const inputs = ['', '---\n', '- a\n- b\n', 'version: 1\n', 'version: 1\nagents:\n', 'version: 1\nagents: []\n', '\u0000\u0001\n', '{{{{\n', 'version: 1\nagents:\n  x: 5\n', 'version: 1\nagents:\n  [a, b]: {}\n'];
    for (const text of inputs) {
      const r = validateConfig({ text }, { env: {} });
      expect(r.ok, JSON.stringify(text)).toBe(false);
      expect(r.problems.length, JSON.stringify(text)).toBeGreaterThan(0);
      for (const p of r.problems) expect(p.line).toBeGreaterThanOrEqual(1);
    }
    const missing = validateConfig({ file: path.join(FIXTURES, 'does-not-exist.yaml') });
    expect(missing).toMatchObject({ ok: false, problems: [{ line: 0, message: 'file not found' }] });
  });

  it('says what is wrong with empty and non-mapping files', () => {
    expect(validateConfig({ text: '' }).problems[0].message).toBe('the file is empty');
    expect(validateConfig({ text: '- a\n- b\n' }).problems[0].message).toBe('expected a mapping, got a list');
    expect(validateConfig({ text: 'version: 1\nagents: {}\n' }).problems[0].message).toBe('no agents are defined');
    const nonMap = validateConfig({ text: 'version: 1\nagents:\n  x: 5\n' }, { env: {} });
    expect(nonMap.problems.map((p) => [p.line, p.col, p.message])).toEqual([[3, 6, 'expected a mapping of agent settings, got an integer']]);
  });

  it('rejects a module path that leaves the folder through a symbolic link', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'adk-config-'));
    const team = path.join(root, 'team');
    const outside = path.join(root, 'outside');
    mkdirSync(team);
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'tool.js'), 'export default {}\n');
    symlinkSync(outside, path.join(team, 'tools'));
    writeFileSync(path.join(team, 'inside.js'), 'export default {}\n');
    const text = 'version: 1\nagents:\n  a:\n    tools:\n      - { module: ./tools/tool.js }\n      - { module: ./inside.js }\n';
    const file = path.join(team, 'agents.yaml');
    writeFileSync(file, text);
    const r = validateConfig({ file });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ line: 5, col: 19, path: 'agents.a.tools[0].module' });
    expect(r.problems[0].message).toContain('symbolic link');
  });
});

describe('loading', () => {
  it('parseConfig and loadConfigFile throw a ConfigValidationError listing every problem', async () => {
    const file = path.join(FIXTURES, 'three-errors.yaml');
    const err = await loadConfigFile(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigValidationError);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigValidationError).problems).toHaveLength(3);
    expect((err as Error).message).toContain(`3 problems in ${file}:`);
    expect((err as Error).message).toContain(`${file}:8:5 agents.coder.instructions`);

    expect(() => parseConfig('version: 3\nagents: { a: {} }\n', 'team.yaml')).toThrow(/team\.yaml:1:10 version: unsupported version 3/);
    const missing = await loadConfigFile(path.join(FIXTURES, 'nope.yaml')).catch((e: unknown) => e);
    expect((missing as Error).message).toContain('nope.yaml: file not found');
  });

  it('validates a generated 1,000-agent file', () => {
    const lines = ['version: 1', 'default: a0', 'models:', '  default: { model: m }', '  fast: { model: f }', 'agents:'];
    for (let i = 0; i < 1000; i++) {
      lines.push(`  a${i}:`, `    description: Agent ${i}.`, `    instruction: Do part ${i}.`, `    model: ${i % 2 ? 'fast' : 'default'}`);
      lines.push(`    tools: [read_file, grep${i % 3 ? '' : ', shell'}]`);
      // A 10-ary tree: agent i has children 10i+1 … 10i+10 (within range).
      const kids = Array.from({ length: 10 }, (_, k) => 10 * i + k + 1).filter((k) => k < 1000);
      if (kids.length) lines.push(`    sub_agents: [${kids.map((k) => `a${k}`).join(', ')}]`);
    }
    const config = ok(lines.join('\n'));
    expect(config.agents.size).toBe(1000);
    expect(config.roots).toEqual(['a0']);
    expect(config.agents.get('a999')!.parent).toBe('a99');
    expect((config.agents.get('a3') as ChatAgentConfig).approval).toEqual(['shell']);

    // The same file with a cycle closing at the bottom of the tree is caught.
    const cyclic = lines.join('\n').replace('    instruction: Do part 999.', '    instruction: Do part 999.\n    sub_agents: [a0]');
    const r = validateConfig({ text: cyclic }, { env: {} });
    expect(r.problems.map((p) => p.message)).toEqual(['sub-agent cycle: a0 -> a9 -> a99 -> a999 -> a0']);
  });
});

describe('more checks', () => {
  const problems = (text: string) => validateConfig({ text }, { env: {} }).problems.map((p) => [p.line, p.col, p.path, p.message]);

  it('checks the inline parts of plan_execute', () => {
    expect(
      problems(
        [
          'version: 1',
          'agents:',
          '  deep:',
          '    type: plan_execute',
          '    planner: { reveiw: true }',
          '    executor: { tools: [fetch_url, shel], approval: [shell], model: nope }',
        ].join('\n'),
      ),
    ).toEqual([
      [5, 16, 'agents.deep.planner.reveiw', "unknown planner key 'reveiw' (did you mean 'review'?)"],
      [6, 36, 'agents.deep.executor.tools[1]', "unknown tool 'shel' (did you mean 'shell'?)"],
      [6, 54, 'agents.deep.executor.approval[0]', "approval names 'shell', which is not among this agent's tools"],
      [6, 69, 'agents.deep.executor.model', "undefined model 'nope'"],
    ]);
  });

  it('accepts approval of MCP or module tools, whose names are known only when loaded', () => {
    const config = ok('version: 1\nmcp_servers: { gh: { command: gh-mcp } }\nagents:\n  a: { tools: [{ mcp: gh }], approval: [create_issue], return_directly: [create_issue] }\n');
    expect(config.agents.get('a')).toMatchObject({ approval: ['create_issue'], returnDirectly: ['create_issue'] });
  });

  it('rejects duplicate tools, bad agent names, tool-like mistakes and a string version', () => {
    expect(
      problems(
        [
          'version: "1"',
          'agents:',
          '  "my agent": { instruction: Hi. }',
          '  b: { tools: [shell, shell, exit, { mcp: x, module: ./y.js }, { modul: ./z.js }, 7] }',
        ].join('\n'),
      ),
    ).toEqual([
      [1, 10, 'version', 'unsupported version "1" (expected 1)'],
      [3, 3, 'agents["my agent"]', "invalid agent name 'my agent'"],
      [4, 23, 'agents.b.tools[1]', "tool 'shell' is listed twice"],
      [4, 30, 'agents.b.tools[2]', "unknown tool 'exit'"],
      [4, 43, 'agents.b.tools[3].mcp', "undefined MCP server 'x'"],
      [4, 46, 'agents.b.tools[3].module', "unknown key 'module' in an MCP tool"],
      [4, 64, 'agents.b.tools[4]', "unknown tool form with key 'modul' (did you mean 'module'?)"],
      [4, 83, 'agents.b.tools[5]', 'expected a tool, got an integer'],
    ]);
    const exit = validateConfig({ text: 'version: 1\nagents:\n  a: { tools: [exit] }\n' }).problems[0];
    expect(exit.hint).toContain('exit: true');
  });

  it('requires sub_agents for workflows and a supervisor for supervisors', () => {
    expect(problems('version: 1\nagents:\n  s: { type: sequential, sub_agents: [] }\n  t: { type: supervisor, sub_agents: [s] }\n')).toEqual([
      [3, 38, 'agents.s.sub_agents', 'must list at least 1 item'],
      [4, 3, 'agents.t.supervisor', "missing required key 'supervisor'"],
    ]);
  });
});
