import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADK_BIN } from '../support/cli.js';
import { expectExit, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer } from '../cli/helpers.js';

// Issue 12, items 7 and 8: bad input gets a clear error and loses nothing.
const server = useServer();
const REPORT_RSS = fileURLToPath(new URL('./fixtures/report-rss.cjs', import.meta.url));

describe('input limits', () => {
  it('100 MB on stdin: exit 2 with a clear message, no session, memory stays small', async () => {
    const home = tempHome();
    const started = Date.now();
    const child = spawn(process.execPath, ['--require', REPORT_RSS, ADK_BIN, 'run', '-'], {
      env: { ...process.env, ...serverEnv(server(), 'test-key-123456', home) } as NodeJS.ProcessEnv,
      cwd: tempDir('adk-stdin-'),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let written = 0;
    const write = () => {
      while (written < 100) {
        written++;
        if (!child.stdin.write(chunk)) return void child.stdin.once('drain', write);
      }
      child.stdin.end();
    };
    child.stdin.on('error', () => {}); // adk stops reading: EPIPE is expected
    write();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const took = Date.now() - started;
    expect(code).toBe(2);
    expect(stderr).toContain('the prompt is larger than 8 MB; no session was created');
    expect(took).toBeLessThan(2000);
    const rssKb = Number(/adk-test-max-rss-kb (\d+)/.exec(stderr)?.[1]);
    expect(rssKb).toBeGreaterThan(0);
    expect(rssKb).toBeLessThan(200 * 1024);
    expect(written).toBeLessThan(100);
    const list = await runCli(['sessions', '--json'], { env: serverEnv(server(), 'test-key-123456', home) });
    expect(JSON.parse(list.stdout)).toEqual([]);
    expect(server().chatRequests).toHaveLength(0);
  }, 20_000);

  it('a torn row in the store is flagged in adk sessions; the others still list (exit 0)', async () => {
    const home = tempHome();
    const env = serverEnv(server(), 'test-key-123456', home);
    server().enqueue({ content: 'one' }, { content: 'two' });
    const a = sessionIdOf(await expectExit(['run', '--json', 'first'], 0, { env }));
    const b = sessionIdOf(await expectExit(['run', '--json', 'second'], 0, { env }));
    // Tear one row as a crash of another writer could: half its bytes.
    const sqlite3 = createRequire(import.meta.resolve('@keyv/sqlite'))('sqlite3') as { Database: new (f: string) => { run(sql: string, cb: (e: Error | null) => void): void; close(cb: () => void): void } };
    const db = new sqlite3.Database(join(home, 'adk.sqlite'));
    await new Promise<void>((resolve, reject) => db.run(`UPDATE keyv SET value = substr(value, 1, length(value) / 2) WHERE key = 'adk:session:${a}'`, (e) => (e ? reject(e) : resolve())));
    await new Promise<void>((resolve) => db.close(resolve));
    const list = await runCli(['sessions'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${a}\\s+CORRUPT`));
    expect(list.stdout).toContain(b);
    const json = JSON.parse((await runCli(['sessions', '--json'], { env })).stdout);
    expect(json.find((s: any) => s.id === a)).toMatchObject({ corrupt: true });
    expect(json.find((s: any) => s.id === b)).toMatchObject({ corrupt: false, status: 'completed' });
    // The torn session can be deleted; the other still resumes.
    expect((await runCli(['sessions', 'delete', a], { env })).code).toBe(0);
    server().enqueue({ content: 'three' });
    await expectExit(['run', '--session', b, '--json', 'third'], 0, { env });
  });
});

describe('many parallel tool calls', () => {
  it('24 calls in one turn: all answered, no MaxListenersExceededWarning on stderr', async () => {
    const home = tempHome();
    const calls = Array.from({ length: 24 }, (_, i) => ({ id: `t${i}`, name: 'current_time', arguments: {} }));
    server().enqueue({ toolCalls: calls }, { content: 'all done' });
    const r = await expectExit(['run', '--json', 'what time, 24 times'], 0, { env: serverEnv(server(), 'test-key-123456', home), cwd: tempDir('adk-many-') });
    expect(r.lines.filter((l: any) => l?.type === 'tool_result')).toHaveLength(24);
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
  });
});

describe('agent trees deeper than the bound', () => {
  it('a 4,000-deep chain is a validation error with file:line:col; validate, agents and run never overflow the stack', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir('adk-deep-');
    const lines = ['version: 1', 'default: a0', 'agents:'];
    for (let i = 0; i < 4000; i++) lines.push(`  a${i}: { description: d, instruction: i${i < 3999 ? `, sub_agents: [a${i + 1}]` : ''} }`);
    writeFileSync(join(dir, 'agents.yaml'), `${lines.join('\n')}\n`);
    const env = serverEnv(server(), 'test-key-123456', tempHome());
    for (const args of [['validate'], ['agents'], ['run', 'hi']]) {
      const r = await runCli(args, { env, cwd: dir });
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/agents\.yaml:\d+:\d+ agents\.a63\.sub_agents\[0\]: the agent tree is more than 64 levels deep at 'a64'/);
      expect(r.stderr).not.toContain('Maximum call stack');
    }
    expect(server().chatRequests).toHaveLength(0);
  });

  it('a 6,000-deep chain in block style, named with validate FILE and run --agents FILE: the depth error at file:line:col, exit 2, never an internal error', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = join(tempDir('adk-deep6k-'), 'agents.yaml');
    const lines = ['version: 1', 'default: a0', 'agents:'];
    for (let i = 0; i < 6000; i++) {
      lines.push(`  a${i}:`, '    description: d', `    instruction: i${i}`);
      if (i < 5999) lines.push('    sub_agents:', `      - a${i + 1}`);
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const env = serverEnv(server(), 'test-key-123456', tempHome());
    // a64 is listed at line 3 + 63 * 5 + 5 (its parent's block starts at line 4 + 63 * 5), column 9.
    for (const args of [['validate', file], ['run', '--agents', file, 'hi'], ['agents', '--agents', file]]) {
      const r = await runCli(args, { env, cwd: tempDir('adk-deep6k-cwd-') });
      const out = r.stdout + r.stderr;
      expect(r.code, `${args[0]}: ${out}`).toBe(2);
      expect(out).toContain("agents.yaml:323:9 agents.a63.sub_agents[0]: the agent tree is more than 64 levels deep at 'a64'");
      expect(out).not.toMatch(/internal error|Maximum call stack/);
    }
    expect(server().chatRequests).toHaveLength(0);
  });
});

describe('names JavaScript reserves', () => {
  it('an agent named __proto__ or constructor is one clear error each, at its line and column', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = join(tempDir('adk-proto-'), 'agents.yaml');
    writeFileSync(file, 'version: 1\ndefault: __proto__\nagents:\n  __proto__:\n    description: d\n    instruction: i\n  constructor:\n    description: c\n    instruction: i\n    sub_agents: [__proto__]\n  ok:\n    description: fine\n    instruction: i\n');
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out).toContain("agents.yaml:4:3 agents.__proto__: '__proto__' cannot be used as a name or key");
    expect(out).toContain("agents.yaml:7:3 agents.constructor: 'constructor' cannot be used as a name or key");
    expect(out).not.toContain('got a mapping');
    expect(out).toContain('2 problems');
  });
});
