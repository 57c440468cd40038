import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblems, validateConfig } from '../../src/core/config/index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/config');

interface Expected {
  line: number;
  col: number;
  path: string;
  message: string;
  hint?: string;
}

/** One fixture per problem class; each names the exact position of the problem it must produce. */
const cases: Record<string, Expected> = {
  'syntax-error.yaml': { line: 6, col: 3, path: '', message: 'YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]' },
  'duplicate-agent.yaml': { line: 7, col: 3, path: 'agents.coder', message: "duplicate key 'coder' (first defined at line 3)", hint: 'agent names must be unique' },
  'duplicate-key-nested.yaml': { line: 7, col: 5, path: 'agents.assistant.description', message: "duplicate key 'description' (first defined at line 6)" },
  'alias-bomb.yaml': { line: 5, col: 36, path: 'd[7]', message: 'aliases expand to more than 10000 nodes (alias bomb)' },
  'version-missing.yaml': { line: 1, col: 1, path: '', message: "missing 'version: 1'" },
  'version-wrong.yaml': { line: 1, col: 10, path: 'version', message: 'unsupported version 2 (expected 1)' },
  'unknown-key.yaml': { line: 5, col: 5, path: 'agents.assistant.tolls', message: "unknown key 'tolls' (did you mean 'tools'?)" },
  'key-not-for-type.yaml': { line: 6, col: 5, path: 'agents.pipeline.tools', message: "key 'tools' is not allowed on a sequential agent" },
  'unknown-type.yaml': { line: 4, col: 11, path: 'agents.pipeline.type', message: "unknown agent type 'sequencial' (did you mean 'sequential'?)" },
  'wrong-type.yaml': { line: 5, col: 21, path: 'agents.assistant.max_iterations', message: 'must be >= 0' },
  'default-undefined.yaml': { line: 2, col: 10, path: 'default', message: "undefined agent 'asistant' (did you mean 'assistant'?)" },
  'undefined-sub-agent.yaml': { line: 5, col: 30, path: 'agents.assistant.sub_agents[1]', message: "undefined agent 'writter' (did you mean 'writer'?)" },
  'undefined-supervisor.yaml': { line: 5, col: 17, path: 'agents.team.supervisor', message: "undefined agent 'boss'" },
  'supervisor-not-chat.yaml': { line: 5, col: 17, path: 'agents.team.supervisor', message: "supervisor 'steps' must be a chat agent, not sequential" },
  'undefined-model.yaml': { line: 8, col: 12, path: 'agents.assistant.model', message: "undefined model 'fsat' (did you mean 'fast'?)" },
  'undefined-mcp.yaml': { line: 7, col: 31, path: 'agents.assistant.tools[1].mcp', message: "undefined MCP server 'file' (did you mean 'files'?)" },
  'mcp-missing-command.yaml': { line: 3, col: 3, path: 'mcp_servers.files', message: 'an MCP server needs `command` (a program to start) or `url` (a remote server)' },
  'unknown-tool.yaml': { line: 5, col: 36, path: 'agents.coder.tools[2]', message: "unknown tool 'shel' (did you mean 'shell'?)" },
  'approval-not-in-tools.yaml': { line: 6, col: 28, path: 'agents.coder.approval[1]', message: "approval names 'shell', which is not among this agent's tools" },
  'cycle.yaml': { line: 8, col: 18, path: 'agents.beta.sub_agents[0]', message: 'sub-agent cycle: alpha -> beta -> alpha' },
  'self-cycle.yaml': { line: 5, col: 26, path: 'agents.loopy.sub_agents[1]', message: 'sub-agent cycle: loopy -> loopy' },
  'two-parents.yaml': { line: 8, col: 18, path: 'agents.pipeline.sub_agents[0]', message: "agent 'researcher' already has a parent: 'assistant'" },
  'supervisor-two-parents.yaml': { line: 9, col: 18, path: 'agents.other.sub_agents[0]', message: "agent 'lead' already has a parent: 'team' (agents.team.supervisor, line 5)" },
  'module-absolute.yaml': { line: 6, col: 19, path: 'agents.assistant.tools[0].module', message: "module path '/etc/tools/weather.js' is absolute" },
  'module-escape.yaml': { line: 7, col: 17, path: 'agents.assistant.tools[1].module', message: "module path '../../outside/weather.js' leaves the folder of agents.yaml" },
  'api-key-literal.yaml': { line: 5, col: 5, path: 'models.default.api_key', message: 'API keys may not be written in agents.yaml', hint: 'api_key_env: OPENAI_API_KEY' },
  'api-key-env-literal.yaml': { line: 3, col: 47, path: 'models.default.api_key_env', message: 'api_key_env must be the NAME of an environment variable' },
  'env-unset.yaml': { line: 3, col: 74, path: 'models.default.base_url', message: "environment variable 'ADK_TEST_HOST' is not set", hint: '${ADK_TEST_HOST:-value}' },
  'wrong-value-type.yaml': { line: 4, col: 18, path: 'agents.assistant.instruction', message: 'expected a string, got a list' },
};

describe('broken agents.yaml fixtures', () => {
  it('has at least 14 broken fixtures', () => {
    expect(Object.keys(cases).length).toBeGreaterThanOrEqual(14);
  });

  for (const [name, want] of Object.entries(cases)) {
    it(`${name}: ${want.message}`, () => {
      const file = path.join(FIXTURES, name);
      const result = validateConfig({ file }, { env: {} });
      expect(result.ok).toBe(false);
      expect(result.config).toBeUndefined();
      const match = result.problems.find((p) => p.message.includes(want.message));
      expect(match, formatProblems(result.problems)).toBeDefined();
      expect({ file: match!.file, line: match!.line, col: match!.col, path: match!.path }).toEqual({ file, line: want.line, col: want.col, path: want.path });
      if (want.hint) expect(match!.hint).toContain(want.hint);
    });
  }

  it('reports only the one problem for a file with one mistake', () => {
    for (const name of ['unknown-tool.yaml', 'cycle.yaml', 'two-parents.yaml', 'undefined-model.yaml', 'key-not-for-type.yaml', 'env-unset.yaml']) {
      const result = validateConfig({ file: path.join(FIXTURES, name) }, { env: {} });
      expect(result.problems, `${name}:\n${formatProblems(result.problems)}`).toHaveLength(1);
    }
  });

  it('never echoes a literal key', () => {
    for (const name of ['api-key-literal.yaml', 'api-key-env-literal.yaml']) {
      const text = formatProblems(validateConfig({ file: path.join(FIXTURES, name) }, { env: {} }).problems);
      expect(text).not.toContain('sk-');
    }
  });
});
