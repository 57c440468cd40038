import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configPowers, createTeam, formatProblems, validateConfig } from '../../src/core/config/index.js';
import { ScriptedChatModel } from '../../src/core/index.js';
import { Runner } from '../../src/core/runner.js';

const write = (text: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'adk-yaml-hooks-'));
  const file = path.join(dir, 'agents.yaml');
  writeFileSync(file, text);
  return { dir, file };
};

describe('hooks: in agents.yaml', () => {
  it('the same shape as the settings files; each hook is a trust power', () => {
    const { file } = write(`version: 1
hooks:
  PreToolUse:
    - matcher: shell|write_file
      hooks: [{ type: command, command: ./check.sh, timeout: 5 }]
agents:
  a: {}
`);
    const r = validateConfig({ file }, { env: {} });
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    expect(r.config!.hooks?.PreToolUse?.[0]).toMatchObject({ matcher: 'shell|write_file', hooks: [{ command: './check.sh', timeout: 5 }], source: 'agents.yaml' });
    expect(configPowers(r.config!, {}).map((p) => p.text)).toEqual(['runs `./check.sh` in the sandbox on PreToolUse (shell|write_file)']);
  });

  it('names file:line:col for an unknown event and a bad hook', () => {
    const { file } = write(`version: 1
hooks:
  PreToolUze:
    - hooks: [{ type: command, command: x }]
  Stop:
    - hooks:
        - { type: shell, command: y }
agents:
  a: {}
`);
    const r = validateConfig({ file }, { env: {} });
    const text = formatProblems(r.problems);
    expect(text).toContain(`${file}:3:3`);
    expect(text).toContain("unknown hook event 'PreToolUze'");
    expect(text).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:7:\\d+.*type must be 'command'`));
  });

  it('createTeam runs the file\'s hooks: a UserPromptSubmit hook adds context the model reads', async () => {
    const { file, dir } = write(`version: 1
hooks:
  UserPromptSubmit:
    - hooks: [{ type: command, command: "echo from-the-hook-42" }]
agents:
  a: { tools: [] }
`);
    const r = validateConfig({ file }, { env: {} });
    const model = new ScriptedChatModel([{ content: 'ok' }]);
    const agent = await createTeam(r.config!, { model: () => model, tools: async () => [], workspace: dir });
    for await (const _ of new Runner({ agent }).query('hi')) void _;
    expect(model.calls[0]!.messages.some((m) => m.content.includes('from-the-hook-42'))).toBe(true);
  });
});
