import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 12, item 2: a process swapping a file and a folder for symlinks between adk's check and
// its use gets nothing out of the workspace and puts nothing there, over 1,000+ attempts.
const server = useServer();
const RACER = fileURLToPath(new URL('./fixtures/symlink-racer.mjs', import.meta.url));
const SECRET = 'OUTSIDE-SECRET-a81f';
const ROUNDS = 12;
const PER_ROUND = 90;

const agents = `version: 1
default: racer
agents:
  racer:
    description: Reads and writes while something races it.
    instruction: Test agent.
    tools: [read_file, grep, list_dir, write_file, edit_file]
    max_iterations: ${ROUNDS + 2}
    # Every scripted reply is a round of the race: no summary requests in between (the window is a guess here).
    middlewares: []
`;

function calls(round: number) {
  const kinds = [
    (_i: number) => ({ name: 'read_file', arguments: { path: 'f.txt' } }),
    (_i: number) => ({ name: 'read_file', arguments: { path: 'sub/x.txt' } }),
    (_i: number) => ({ name: 'grep', arguments: { pattern: 'SECRET|inside', path: 'sub' } }),
    (_i: number) => ({ name: 'grep', arguments: { pattern: 'SECRET' } }),
    (_i: number) => ({ name: 'list_dir', arguments: { path: 'sub' } }),
    (i: number) => ({ name: 'write_file', arguments: { path: `sub/w-${round}-${i}.txt`, content: 'written' } }),
    (_i: number) => ({ name: 'write_file', arguments: { path: 'f.txt', content: 'inside file\n' } }),
    (_i: number) => ({ name: 'write_file', arguments: { path: 'sub/x.txt', content: 'inside x\n' } }),
    (_i: number) => ({ name: 'edit_file', arguments: { path: 'sub/x.txt', old: 'inside x', new: 'inside x' } }),
  ];
  return Array.from({ length: PER_ROUND }, (_, i) => ({ id: `c${round}_${i}`, ...kinds[i % kinds.length](i) }));
}

describe('file tools against a symlink race', () => {
  it(`${ROUNDS * PER_ROUND} racing reads, greps, listings and writes: nothing read from or written outside`, async () => {
    const ws = tempDir('adk-race-ws-');
    const outside = tempDir('adk-race-out-');
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(outside, 'x.txt'), `${SECRET} x\n`);
    writeFileSync(join(outside, 'only-outside-name.txt'), `${SECRET}\n`);
    writeFileSync(join(ws, 'f.txt'), 'inside file\n');
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'x.txt'), 'inside x\n');
    const before = readdirSync(outside).sort();

    const racer = spawn(process.execPath, [RACER, ws, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => racer.stdout!.once('data', () => resolve()));
    try {
      for (let r = 0; r < ROUNDS; r++) server().enqueue({ toolCalls: calls(r) });
      server().enqueue({ content: 'done' });
      const home = tempHome();
      const cfg = writeAgentsFile(tempDir('adk-race-cfg-'), agents);
      const res = await expectExit(['run', '--agents', cfg, '--json', 'race'], 0, { env: serverEnv(server(), undefined, home), cwd: ws, timeoutMs: 120_000 });
      const results = ofType(res.lines, 'tool_result');
      expect(results.length).toBe(ROUNDS * PER_ROUND);
      const leaked = results.filter((t) => t.content.includes(SECRET) || t.content.includes('only-outside-name'));
      expect(leaked.map((t) => `${t.name}: ${t.content.slice(0, 120)}`)).toEqual([]);
      // Some attempts must have met the race (refused) and some gone through: otherwise it proved nothing.
      expect(results.some((t) => t.isError)).toBe(true);
      expect(results.some((t) => !t.isError && t.content.includes('inside'))).toBe(true);
    } finally {
      racer.kill('SIGKILL');
    }
    expect(readdirSync(outside).sort()).toEqual(before);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(readFileSync(join(outside, 'x.txt'), 'utf8')).toBe(`${SECRET} x\n`);
  }, 150_000);
});
