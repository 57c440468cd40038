import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectExit, offlineEnv, runCli, tempDir, writeAgentsFile } from '../cli/helpers.js';
import { BUNDLED_AGENTS } from './team-script.js';

// Issue 5, Must show 1 and 2 through the CLI: exact positions are asserted by test/config; here the wiring.
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/config');
const opts = () => ({ env: offlineEnv(), cwd: tempDir('adk-validate-') });

describe('adk validate', () => {
  it('the bundled file is valid (exit 0)', async () => {
    const r = await expectExit(['validate', BUNDLED_AGENTS], 0, opts());
    expect(r.stdout).toMatch(/ok \(\d+ agents\)/);
    // With no file and no ./agents.yaml, the bundled file is checked.
    const d = await expectExit(['validate'], 0, opts());
    expect(d.stdout).toContain(BUNDLED_AGENTS);
  });

  const broken: Array<[string, string, string]> = [
    ['unknown-tool.yaml', '5:36', "unknown tool 'shel' (did you mean 'shell'?)"],
    ['cycle.yaml', '8:18', 'sub-agent cycle: alpha -> beta -> alpha'],
    ['module-escape.yaml', '7:17', "module path '../../outside/weather.js' leaves the folder of agents.yaml"],
    ['undefined-model.yaml', '8:12', "undefined model 'fsat'"],
    ['alias-bomb.yaml', '5:36', 'alias bomb'],
  ];
  for (const [name, pos, message] of broken) {
    it(`${name}: exit 2 with file:line:col`, async () => {
      const file = path.join(FIXTURES, name);
      const r = await runCli(['validate', file], opts());
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file}:${pos} `);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    });
  }

  it('reports every problem at once', async () => {
    const file = path.join(FIXTURES, 'three-errors.yaml');
    const r = await runCli(['validate', file], opts());
    expect(r.code).toBe(2);
    const positions = r.stderr.match(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+`, 'g')) ?? [];
    expect(positions).toHaveLength(3);
    expect(r.stderr).toContain('3 problems');
  });

  it('./agents.yaml in the current folder is checked when no file is given', async () => {
    const cwd = tempDir('adk-validate-local-');
    writeAgentsFile(cwd, 'version: 1\nagents:\n  a:\n    instruction: Hi.\n    tools: [shel]\n');
    const r = await runCli(['validate'], { env: offlineEnv(), cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/agents\.yaml:5:\d+ .*unknown tool 'shel'/);
  });

  it('a missing file is an error, not a crash', async () => {
    const r = await runCli(['validate', '/nonexistent/agents.yaml'], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/nonexistent/agents.yaml');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('adk agents', () => {
  it('prints the bundled tree with types, tools and models', async () => {
    const r = await expectExit(['agents', '--agents', BUNDLED_AGENTS], 0, opts());
    const lines = r.stdout.split('\n');
    expect(lines).toContain('assistant [default] (chat, model: default) tools: read_file, write_file[approval], edit_file[approval], list_dir, grep, shell[approval], current_time, ask_user');
    // Issue 33: the research team is Deer-Go's graph, each child marked with its role.
    expect(lines).toContain('├── research_coordinator [coordinator] (chat, model: default) tools: handoff_to_planner');
    expect(lines).toContain('├── research_coder [coder] (chat, model: default) tools: shell[approval], write_file[approval], read_file');
    expect(lines).toContain('coder (supervisor)');
    expect(lines).toContain('├── tech_lead [supervisor] (chat, model: default)');
    expect(lines).toContain('refine [max_iterations: 3] (loop)');
    expect(lines).toContain('└── critic [exit] (chat, model: default)');
    expect(lines.some((l) => /^demo \(chat, model: demo\)/.test(l))).toBe(true);
  });

  it('a broken file exits 2 with its problems', async () => {
    const r = await runCli(['agents', '--agents', path.join(FIXTURES, 'cycle.yaml')], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cycle.yaml:8:18');
  });
});
