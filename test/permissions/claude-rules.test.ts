import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer } from '../cli/helpers.js';
import { formatRule, ruleAllows, ruleDenies } from '../../src/core/agents/allow-rules.js';
import { parseRuleText } from '../../src/cli/settings/rule-text.js';

// Issue 48, item 1: a Claude Code user's rules in a settings file. `Bash(rm:*)` and `Read(./.env)`
// (Claude's standard secrets rule) were dropped with a warning, and `read_file .env` then ran unasked
// and returned the secret. Now Claude's syntax is read, a deny rule covers every simple command of a
// compound one, and a deny rule adk cannot read stops the start instead of being dropped.
const server = useServer();

function workspace(settings: unknown): string {
  const ws = tempDir('adk-claude-rules-');
  mkdirSync(join(ws, '.adk'));
  writeFileSync(join(ws, '.adk', 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(join(ws, '.env'), 'API_TOKEN=sk-live-the-secret-value\n');
  mkdirSync(join(ws, 'build'));
  return ws;
}

describe("Claude Code's permission rules in settings files", () => {
  it('deny Bash(rm:*) and Read(./.env): the secret is not read, rm does not run even inside a compound command; other commands run', async () => {
    const ws = workspace({ permissions: { allow: [], deny: ['Bash(rm:*)', 'Read(./.env)'] } });
    server().enqueue(
      { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'sub/../.env' } }] },
      { toolCalls: [{ id: 's1', name: 'shell', arguments: { command: 'ls && rm -rf build' } }] },
      { toolCalls: [{ id: 's2', name: 'shell', arguments: { command: 'echo still-here' } }] },
      { content: 'done' },
    );
    const r = await expectExit(['run', '--json', '--allow', 'shell', 'tidy up'], 0, { env: serverEnv(server(), 'sk-claude-rules-1', tempHome()), cwd: ws });
    const results = ofType(r.lines, 'tool_result').map((l) => String(l.content));
    expect(results[0]).toContain('A deny rule (read_file(.env)) forbids this read_file call');
    expect(results[1]).toContain('A deny rule (shell(rm*)) forbids this shell call');
    expect(results[2]).toContain('still-here');
    expect(existsSync(join(ws, 'build'))).toBe(true);
    for (const req of server().chatRequests) expect(JSON.stringify(req.body)).not.toContain('sk-live-the-secret-value');
  });

  it('a deny rule adk cannot read stops the start, naming file:line:col', async () => {
    const ws = workspace({ permissions: { deny: ['Read(./.env)', 'Bash(rm:*'] } });
    const r = await runCli(['run', '--json', 'hi'], { env: serverEnv(server(), 'sk-claude-rules-1', tempHome()), cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.adk\/settings\.json:5:7: 'Bash\(rm:\*' is not a rule/);
    expect(r.stderr).toContain('adk cannot honour this deny rule, so it does not start');
    expect(server().chatRequests).toHaveLength(0);
    // A file that does not parse: its deny rules cannot be read either.
    writeFileSync(join(ws, '.adk', 'settings.json'), '{ "permissions": { "deny": ["Read(./.env)"], } }');
    const broken = await runCli(['run', '--json', 'hi'], { env: serverEnv(server(), 'sk-claude-rules-1', tempHome()), cwd: ws });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/\.adk\/settings\.json:1:\d+: .*\(its permission rules cannot be read\)/);
  });

  it("maps Claude's forms as Claude Code reads them: Read and Edit cover every tool that reads or writes a file, ** at the top, cmd:* at a word boundary", () => {
    const rules = (text: string, kind: 'allow' | 'deny' = 'allow') => {
      const r = parseRuleText(text, kind);
      return 'rules' in r ? r.rules : [];
    };
    expect(rules('Read(./.env)', 'deny').map(formatRule)).toEqual(['read_file(.env)', 'grep(.env)']);
    expect(rules('Edit(src/**)').map(formatRule)).toEqual(['edit_file(src/*)', 'write_file(src/*)']);
    const anywhere = rules('Read(**/.env)', 'deny');
    for (const p of ['.env', 'app/.env']) expect(anywhere.some((r) => ruleDenies(r, 'read_file', { path: p })), p).toBe(true);
    const ts = rules('Edit(src/**/*.ts)');
    for (const p of ['src/a.ts', 'src/x/a.ts']) expect(ts.some((r) => ruleAllows(r, 'edit_file', { path: p })), p).toBe(true);
    const diff = rules('Bash(git diff:*)');
    expect(diff.some((r) => ruleAllows(r, 'shell', { command: 'git diff --stat' }))).toBe(true);
    expect(diff.some((r) => ruleAllows(r, 'shell', { command: 'git diff' }))).toBe(true);
    expect(diff.some((r) => ruleAllows(r, 'shell', { command: 'git difftool --tool=x' }))).toBe(false);
    expect(rules('Bash(rm:*)', 'deny').map(formatRule)).toEqual(['shell(rm*)']);
    expect(parseRuleText('Bash()')).toMatchObject({ error: expect.stringContaining('an empty pattern') });
    expect(parseRuleText('Task')).toEqual({ claudeOnly: 'Task' });
  });
});
