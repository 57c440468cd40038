import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, runCli, serverEnv, sessionIdOf, tempHome, useServer } from '../cli/helpers.js';

// A row of the SQLite store torn behind adk's back (half its bytes, as a crash of another writer or
// a bad disk leaves it): every command that meets it names the session, the row and the way out.
const server = useServer();

type Db = { run(sql: string, cb: (e: Error | null) => void): void; close(cb: () => void): void };
const sqlite3 = createRequire(import.meta.resolve('@keyv/sqlite'))('sqlite3') as { Database: new (f: string) => Db };

async function tear(home: string, key: string): Promise<void> {
  const db = new sqlite3.Database(join(home, 'adk.sqlite'));
  await new Promise<void>((resolve, reject) => db.run(`UPDATE keyv SET value = substr(value, 1, length(value) / 2) WHERE key = 'adk:${key}'`, (e) => (e ? reject(e) : resolve())));
  await new Promise<void>((resolve) => db.close(resolve));
}

async function twoSessions(): Promise<{ env: Record<string, string | undefined>; a: string; b: string }> {
  const home = tempHome();
  const env = { ...serverEnv(server(), 'test-key-123456', home), ADK_STORE: undefined };
  server().enqueue({ content: 'one' }, { content: 'two' });
  const a = sessionIdOf(await expectExit(['run', '--json', 'first'], 0, { env }));
  const b = sessionIdOf(await expectExit(['run', '--json', 'second'], 0, { env }));
  return { env, a, b };
}

const homeOf = (env: Record<string, string | undefined>) => env.ADK_HOME!;

/** `sessions show` and `resume` fail with one line naming the session, the damaged row and the fix; nothing reaches the model. */
async function expectDamaged(env: Record<string, string | undefined>, id: string, row: RegExp): Promise<void> {
  const before = server().chatRequests.length;
  for (const args of [['sessions', 'show', id], ['resume', id, 'more'], ['run', '--session', id, 'more']]) {
    const r = await runCli(args, { env });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, args.join(' ')).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^adk: session ${id} is corrupt: `));
    expect(lines[0]).toMatch(row);
    expect(lines[0]).toContain(`adk sessions delete ${id}`);
    expect(lines[0]).not.toMatch(/get on store .* failed/);
  }
  expect(server().chatRequests.length).toBe(before);
}

describe('torn store rows', () => {
  it('a torn session record: show and resume name the session, its record and `adk sessions delete`', async () => {
    const { env, a, b } = await twoSessions();
    await tear(homeOf(env), `session:${a}`);
    await expectDamaged(env, a, /its record is torn \(not valid JSON: /);
    // The other session still works; the torn one can be deleted.
    server().enqueue({ content: 'three' });
    await expectExit(['resume', b, 'third'], 0, { env });
    await expectExit(['sessions', 'delete', a], 0, { env });
  });

  it('a torn message row: flagged by adk sessions like a torn record; show and resume name the message', async () => {
    const { env, a, b } = await twoSessions();
    await tear(homeOf(env), `sessionlog:${a}:0000000001`);

    const list = await runCli(['sessions'], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${a}\\s+CORRUPT\\s+session ${a} is corrupt: message 1 is torn`));
    expect(list.stdout).toMatch(new RegExp(`${b}\\s+completed`));
    const json = JSON.parse((await runCli(['sessions', '--json'], { env })).stdout);
    expect(json.find((s: any) => s.id === a)).toMatchObject({ corrupt: true, code: 'session_corrupt' });
    expect(json.find((s: any) => s.id === b)).toMatchObject({ corrupt: false, status: 'completed' });

    await expectDamaged(env, a, /message 1 is torn \(not valid JSON: /);
    await expectExit(['sessions', 'delete', a], 0, { env });
    expect(JSON.parse((await runCli(['sessions', '--json'], { env })).stdout).map((s: any) => s.id)).toEqual([b]);
  });
});
