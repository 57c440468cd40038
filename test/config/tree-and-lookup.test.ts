import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentForest, agentTree, findAgentsFile, loadConfigFile, parseConfig, renderAgentTree } from '../../src/core/config/index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/config');

describe('agent tree', () => {
  it('renders the default agent with its sub-agents, models and tools', async () => {
    const { config } = await loadConfigFile(path.join(FIXTURES, 'valid-full.yaml'), { env: {} });
    expect(renderAgentTree(agentTree(config))).toBe(
      [
        'assistant [default] (chat, model: default) tools: read_file, list_dir, shell[approval], ask_user',
        '└── researcher (chat, model: default) tools: fetch_url, mcp:files, ./tools/weather.js#weather',
      ].join('\n'),
    );
  });

  it('renders every root: workflows, supervisor (its supervisor first) and plan_execute parts', async () => {
    const { config } = await loadConfigFile(path.join(FIXTURES, 'valid-full.yaml'), { env: {} });
    const text = renderAgentTree(agentForest(config));
    expect(text).toContain(
      [
        'team (supervisor)',
        '├── lead [supervisor] (chat, model: default)',
        '├── analyst (chat, model: default)',
        '└── coder (chat, model: default) tools: read_file, write_file, edit_file, shell[approval]',
        'deep (plan_execute, model: default)',
        '├── planner [review] (model: default)',
        '├── executor (model: default) tools: fetch_url',
        '└── replanner (model: default)',
      ].join('\n'),
    );
    expect(text).toContain('polish [max_iterations: 3] (loop)\n├── editor (chat, model: default)\n└── critic [exit] (chat, model: default)');
  });

  it('draws nested children with continuation bars', () => {
    const config = parseConfig(
      [
        'version: 1',
        'agents:',
        '  root: { type: sequential, sub_agents: [left, right] }',
        '  left: { description: Left., instruction: L., sub_agents: [leaf], model: demo }',
        '  leaf: { description: Leaf., instruction: X., tools: [{ mcp: fs }], approval: [write_file_remote] }',
        '  right: { instruction: R. }',
        'models: { demo: { provider: demo } }',
        'mcp_servers: { fs: { command: node } }',
      ].join('\n'),
      'agents.yaml',
      { env: {} },
    );
    const tree = agentTree(config, 'root');
    expect(tree.children.map((c) => c.name)).toEqual(['left', 'right']);
    expect(renderAgentTree(tree)).toBe(
      [
        'root [default] (sequential)',
        '├── left (chat, model: demo)',
        '│   └── leaf (chat, model: default) tools: mcp:fs approval: write_file_remote',
        '└── right (chat, model: default)',
      ].join('\n'),
    );
    expect(() => agentTree(config, 'nobody')).toThrow(/unknown agent 'nobody'/);
  });
});

describe('findAgentsFile', () => {
  const bundled = '/opt/adk/agents.yaml';

  it('prefers --agents, then ./agents.yaml, then the bundled file', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'adk-find-'));
    expect(findAgentsFile(cwd, undefined, bundled)).toEqual({ path: bundled, source: 'bundled' });
    mkdirSync(path.join(cwd, 'agents.yaml-dir'));
    writeFileSync(path.join(cwd, 'agents.yaml'), 'version: 1\n');
    expect(findAgentsFile(cwd, undefined, bundled)).toEqual({ path: path.join(cwd, 'agents.yaml'), source: 'cwd' });
    expect(findAgentsFile(cwd, 'teams/dev.yaml', bundled)).toEqual({ path: path.join(cwd, 'teams/dev.yaml'), source: 'flag' });
    expect(findAgentsFile(cwd, '/abs/team.yaml', bundled)).toEqual({ path: '/abs/team.yaml', source: 'flag' });
  });

  it("treats ./agents.yaml as the bundled file inside adk's own checkout", () => {
    const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const own = path.join(repo, 'agents.yaml');
    expect(findAgentsFile(repo, undefined, own)).toEqual({ path: own, source: 'bundled' });
    expect(findAgentsFile(repo, 'agents.yaml', own).source).toBe('bundled');
  });

  it('ignores a directory named agents.yaml', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'adk-find-'));
    mkdirSync(path.join(cwd, 'agents.yaml'));
    expect(findAgentsFile(cwd, undefined, bundled).source).toBe('bundled');
  });
});
