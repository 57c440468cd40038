import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustAgentsFile } from '../support/trust.js';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from './helpers.js';

// Issue 44: agents files may set the unattended policy per agent (a trust power): its own
// permission_mode, allow and deny rules, for that agent's calls only.
const server = useServer();

const team = (perms: string) => `version: 1
default: writer
agents:
  writer:
    description: Writes files.
    instruction: Write what you are asked.
    tools: [write_file, shell]
    approval: [write_file, shell]
${perms}`;

describe('per-agent permissions in an agents file', () => {
  it('accept-edits and allow are trust powers; trusted, the agent edits unasked and its deny rule refuses a command', async () => {
    const home = tempHome();
    const ws = tempDir('adk-agent-perms-');
    const file = writeAgentsFile(ws, team('    permission_mode: accept-edits\n    deny: ["shell(rm *)"]\n'));
    const untrusted = await runCli(['run', 'go'], { env: serverEnv(server(), 'sk-perm-test', home), cwd: ws });
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain('lets agent writer edit files without asking (permission_mode: accept-edits)');
    trustAgentsFile(home, file);
    server().enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hi' } }] },
      { toolCalls: [{ name: 'shell', arguments: { command: 'rm notes.txt' } }] },
      { content: 'done' },
    );
    const r = await expectExit(['run', '--json', 'go'], 0, { env: serverEnv(server(), 'sk-perm-test', home), cwd: ws });
    // write_file asks in this team (approval:), so it ran unasked only by the agent's accept-edits.
    expect(existsSync(join(ws, 'notes.txt'))).toBe(true);
    const results = ofType(r.lines, 'tool_result');
    expect(results[1]!.content).toContain('A deny rule (shell(rm *)) forbids this shell call');
    expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'completed' });
  });

  it("an agent's plan mode refuses its edits; no trust needed (it only narrows)", async () => {
    const home = tempHome();
    const ws = tempDir('adk-agent-perms-');
    writeAgentsFile(ws, team('    permission_mode: plan\n'));
    server().enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hi' } }] }, { content: 'ok' });
    const r = await expectExit(['run', '--json', 'go'], 0, { env: serverEnv(server(), 'sk-perm-test', home), cwd: ws });
    expect(ofType(r.lines, 'tool_result')[0]!.content).toContain('Plan mode is on');
    expect(existsSync(join(ws, 'notes.txt'))).toBe(false);
  });

  it('a rule that does not parse is named at its file, line and column', async () => {
    const ws = tempDir('adk-agent-perms-');
    writeAgentsFile(ws, team('    allow: ["shell(unclosed"]\n'));
    const r = await runCli(['validate'], { cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/agents\.yaml:9:\d+/);
  });

  it("rules on an agent named like an inner agent (plan_execute's executor) are refused: they would reach that one too", async () => {
    const home = tempHome();
    const ws = tempDir('adk-agent-perms-');
    writeAgentsFile(
      ws,
      `version: 1\ndefault: executor\nagents:\n  executor:\n    description: Writes.\n    instruction: Write.\n    tools: [write_file]\n    allow: [write_file]\n  planned:\n    type: plan_execute\n    description: Plans.\n    executor: { tools: [write_file] }\n`,
    );
    const r = await runCli(['run', 'go'], { env: serverEnv(server(), 'sk-perm-test', home), cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("agent 'executor' sets permission_mode/allow/deny");
    // Said where the file is checked, at the agent's name (before: only when a run loaded the team).
    const v = await runCli(['validate'], { env: { ...process.env, ADK_HOME: home }, cwd: ws });
    expect(v.code).toBe(2);
    expect(v.stdout + v.stderr).toMatch(/agents\.yaml:4:3.*agent 'executor' sets permission_mode\/allow\/deny/);
    expect(v.stdout + v.stderr).toContain("rename agent 'executor'");
  });

  it('two deep agents with their general-purpose helpers: rules on one are refused at its name (they would reach the other helper)', async () => {
    const ws = tempDir('adk-agent-perms-');
    writeAgentsFile(
      ws,
      `version: 1\ndefault: a\nagents:\n  a:\n    type: deep\n    description: A.\n    instruction: A.\n    deny: [shell]\n  b:\n    type: deep\n    description: B.\n    instruction: B.\n`,
    );
    const v = await runCli(['validate'], { env: { ...process.env, ADK_HOME: tempHome() }, cwd: ws });
    expect(v.code).toBe(2);
    expect(v.stdout + v.stderr).toMatch(/agents\.yaml:4:3.*deep agent 'a'/);
    expect(v.stdout + v.stderr).toContain('general_purpose: false');
  });
});
