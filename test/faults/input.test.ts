import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_TRANSFERS } from '../../src/core/agents/run-context.js';
import { validateConfig } from '../../src/core/config/index.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { cli, expectCleanStderr, modelEnv, ofType, showSession, tempDir, workspace } from './helpers.js';

/* Hostile or extreme input: huge prompts, bad bytes, YAML bombs, huge teams, endless transfers. */

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

const BOMB = join(import.meta.dirname, '../fixtures/config/alias-bomb.yaml');

describe('input faults', () => {
  it('a 7 MB prompt on stdin (under the 8 MB cap) reaches the model whole and is saved whole', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    const prompt = `${'0123456789abcdef'.repeat(64)}\n`.repeat(7 * 1024); // 7 MiB, many lines
    server.enqueue({ content: 'that was long' });
    const r = await cli(['run', '--json', '-'], { env, cwd, input: prompt, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(prompt.length).toBe(7 * 1024 * 1024 + 7 * 1024);
    const sent = server.chatRequests[0].body.messages.at(-1);
    expect(sent.role).toBe('user');
    expect(sent.content).toBe(prompt);
    const session = await showSession(r.lines[0].sessionId, env, cwd);
    expect(session.messages[0].content).toBe(prompt);
    expect(session.title.length).toBeLessThanOrEqual(60);
  });

  it('invalid UTF-8 on stdin becomes U+FFFD instead of failing', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    // A lone continuation byte, an overlong sequence, a truncated 3-byte sequence, a surrogate half.
    const bytes = Buffer.concat([Buffer.from('say '), Buffer.from([0x80, 0x20, 0xc0, 0xaf, 0x20, 0xe2, 0x82, 0x20, 0xed, 0xa0, 0x80]), Buffer.from(' ok')]);
    server.enqueue({ content: 'fine' });
    const r = await cli(['run', '--json', '-'], { env, cwd, input: bytes });
    expect(r.code, r.stderr).toBe(0);
    const expected = bytes.toString('utf8');
    expect(expected).toContain('\uFFFD');
    expect(server.chatRequests[0].body.messages.at(-1).content).toBe(expected);
    const session = await showSession(r.lines[0].sessionId, env, cwd);
    expect(session.messages[0].content).toBe(expected);
  });

  it('a YAML alias bomb is refused quickly with its position, by validate and by run', async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    const started = Date.now();
    const v = await cli(['validate', BOMB], { env, cwd });
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/alias-bomb\.yaml:\d+:\d+ .*alias bomb/);
    const r = await cli(['run', '--agents', BOMB, 'hi'], { env, cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/alias bomb/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(server.chatRequests).toHaveLength(0);
    expectCleanStderr(v.stderr + r.stderr);
  });

  it('a 1,000-agent YAML validates in under 1 s', async () => {
    const lines = ['version: 1', 'default: a0', 'models:', '  default: { model: m }', 'agents:'];
    for (let i = 0; i < 1000; i++) {
      lines.push(`  a${i}:`, `    description: Agent ${i}.`, `    instruction: Do part ${i} of the work.`, '    tools: [read_file, grep, list_dir]');
      const kids = Array.from({ length: 10 }, (_, k) => 10 * i + k + 1).filter((k) => k < 1000);
      if (kids.length) lines.push(`    sub_agents: [${kids.map((k) => `a${k}`).join(', ')}]`);
    }
    const dir = tempDir('big');
    const file = join(dir, 'agents.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);
    // The best of three, so a busy machine's scheduling noise does not decide (the first is cold: ~0.5 s here).
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const result = validateConfig({ file }, { env: {} });
      times.push(performance.now() - started);
      expect(result.problems).toEqual([]);
      expect(result.config!.agents.size).toBe(1000);
    }
    expect(Math.min(...times)).toBeLessThan(1000);
    const v = await cli(['validate', file], { cwd: dir });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toBe(`${file}: ok (1000 agents)\n`);
  });

  it(`deeply nested transfer loops stop at the documented maximum (${DEFAULT_MAX_TRANSFERS} per run) with a clear error`, async () => {
    const { cwd, home } = workspace();
    const env = modelEnv(server, home);
    // A chain l0 → l1 → … → l9: each agent hands the question down, the deepest hands it back up.
    const depth = 10;
    const yaml = ['version: 1', 'default: l0', 'agents:'];
    for (let i = 0; i < depth; i++) {
      yaml.push(`  l${i}:`, `    description: Level ${i}.`, `    instruction: I am l${i}.`);
      if (i + 1 < depth) yaml.push(`    sub_agents: [l${i + 1}]`);
    }
    writeFileSync(join(cwd, 'agents.yaml'), `${yaml.join('\n')}\n`);
    server.onRequest((req) => {
      const system = String(req.body.messages.find((m: any) => m.role === 'system')?.content ?? '');
      const me = Number(/I am l(\d+)\./.exec(system)![1]);
      const targets = [...system.matchAll(/Agent name: (\S+)/g)].map((m) => m[1]);
      const to = targets.includes(`l${me + 1}`) ? `l${me + 1}` : `l${me - 1}`;
      return { toolCalls: [{ name: 'transfer_to_agent', arguments: { agent_name: to } }] };
    });
    const r = await cli(['run', '--json', 'go around'], { env, cwd });
    expect(r.code).toBe(1);
    // 50 transfers run; the 51st is asked for and refused.
    expect(ofType(r.lines, 'transfer')).toHaveLength(DEFAULT_MAX_TRANSFERS + 1);
    expect(server.chatRequests).toHaveLength(DEFAULT_MAX_TRANSFERS + 1);
    const visited = ofType(r.lines, 'transfer').map((t) => t.to);
    expect(visited.slice(0, depth - 1)).toEqual(Array.from({ length: depth - 1 }, (_, i) => `l${i + 1}`));
    expect(r.stderr.trim().split('\n')).toEqual([`adk: too many transfers in one run (max ${DEFAULT_MAX_TRANSFERS}); agents may be transferring in a loop`]);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'error' });
    expectCleanStderr(r.stderr);
  });
});
