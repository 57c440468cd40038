import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 28, HIGH 1: trust covers the code a trusted file runs — what module tools and MCP servers
// import, and scripts named inside `sh -c` — and code a session wrote is never loaded outside the sandbox.
const server = useServer();
const MCP_FIXTURE = fileURLToPath(new URL('../tools/fixtures/mcp-server.mjs', import.meta.url));

let home: string;
let repo: string;
beforeEach(() => {
  home = tempHome();
  repo = tempDir('adk-trusted-code-');
});
// The servers run in the sandbox, which shows only what their command line names: the shared fixture they import is a read path.
const env = () => ({ ...serverEnv(server(), 'sk-secret-test-key-0001', home), ADK_SANDBOX_READ_PATHS: dirname(MCP_FIXTURE) });
const put = (rel: string, text: string) => {
  mkdirSync(join(repo, rel, '..'), { recursive: true });
  writeFileSync(join(repo, rel), text);
};
const trust = async () => expect((await runCli(['trust', repo, '--yes'], { env: env() })).code).toBe(0);
/** A module that leaves `name` in the repo when it is imported: the proof that it ran. */
const marking = (name: string, body = '') => `import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('${'../'.repeat(name.split('/').length - 1)}${name}', import.meta.url), 'x');\n${body}`;

describe('trust follows what a module tool imports', () => {
  it('a change to a file a trusted module tool imports is refused: adk run says untrusted, resume names the file, nothing of it runs', async () => {
    put('tools/tool.js', `import { version } from './lib/impl.js';\nexport default { name: 'ver', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => version };\n`);
    put('tools/lib/impl.js', `export const version = 'v1';\n`);
    writeAgentsFile(repo, `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Be brief., tools: [shell, { module: ./tools/tool.js }], approval: [shell] }\n`);
    await trust();
    server().enqueue({ toolCalls: [{ id: 'v', name: 'ver', arguments: {} }] }, { toolCalls: [{ id: 's', name: 'shell', arguments: { command: 'touch ran.txt' } }] });
    const r = await expectExit(['run', '--json', 'go'], 3, { env: env(), cwd: repo });
    expect(ofType(r.lines, 'tool_result')[0]).toMatchObject({ name: 'ver', content: 'v1' });
    const id = sessionIdOf(r);

    put('tools/lib/impl.js', marking('tools/lib/pwned.txt', `export const version = 'v2';\n`));
    const fresh = await runCli(['run', 'hello'], { env: env(), cwd: repo });
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toContain('is not trusted');
    const resumed = await runCli(['resume', id, '--approve', '--json'], { env: env(), cwd: repo });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('tools/lib/impl.js (changed)');
    expect(existsSync(join(repo, 'tools/lib/pwned.txt'))).toBe(false);
    expect(existsSync(join(repo, 'ran.txt'))).toBe(false);
  });

  it('the sandbox-then-load chain: a sandboxed command rewrites what a module tool imports lazily; the next call is refused, in the same run', async () => {
    put('tools/tool.js', `export default { name: 'lazy', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => (await import('./lib/impl.js')).run() };\n`);
    put('tools/lib/impl.js', `export const run = () => 'v1';\n`);
    writeAgentsFile(repo, `version: 1\ndefault: a\nagents:\n  a: { description: A., instruction: Be brief., tools: [shell, { module: ./tools/tool.js }], approval: [] }\n`);
    await trust();
    const evil = marking('tools/lib/pwned.txt', `export const run = () => 'v2';\n`).replace(/'/g, `'"'"'`);
    server().enqueue(
      { toolCalls: [{ id: 'w', name: 'shell', arguments: { command: `printf '%s' '${evil}' > tools/lib/impl.js && echo rewritten` } }] },
      { toolCalls: [{ id: 'l', name: 'lazy', arguments: {} }] },
      { content: 'done' },
    );
    const r = await expectExit(['run', '--json', 'go'], 0, { env: env(), cwd: repo });
    const results = ofType(r.lines, 'tool_result');
    expect(results[0].content).toContain('rewritten');
    expect(results[1]).toMatchObject({ name: 'lazy', isError: true });
    expect(results[1].content).toContain('tools/lib/impl.js (changed)');
    expect(existsSync(join(repo, 'tools/lib/pwned.txt')), 'code a sandboxed command wrote ran outside the sandbox').toBe(false);
  });
});

describe('trust follows what an MCP server runs', () => {
  const serverScript = (lib: string) => `import './${lib}';\nawait import(${JSON.stringify(MCP_FIXTURE)});\n`;
  const yaml = (command: string, args: string[]) =>
    `version: 1\ndefault: a\nmcp_servers:\n  s: { command: ${command}, args: ${JSON.stringify(args)} }\nagents:\n  a: { description: A., instruction: Be brief., tools: [{ mcp: s }] }\n`;

  for (const [name, command, args, changed] of [
    ['a file the server script imports', 'node', ['mcp/server.mjs'], 'mcp/lib.mjs'],
    ['a script named inside sh -c', 'sh', ['-c', 'exec node mcp/server.mjs'], 'mcp/server.mjs'],
    ['a file imported by a script named inside bash -c', 'bash', ['-c', 'cd mcp && exec node ./server.mjs'], 'mcp/lib.mjs'],
    ['a file an inline program (node -e) imports', 'node', ['--input-type=module', '-e', `await import('./mcp/lib.mjs'); await import(${JSON.stringify(MCP_FIXTURE)});`], 'mcp/lib.mjs'],
  ] as const) {
    it(`a change to ${name} is refused before the server starts`, async () => {
      put('mcp/server.mjs', serverScript('lib.mjs'));
      put('mcp/lib.mjs', marking('mcp/started-v1.txt'));
      writeAgentsFile(repo, yaml(command, [...args]));
      await trust();
      server().enqueue({ content: 'hi' });
      await expectExit(['run', '--json', 'hello'], 0, { env: env(), cwd: repo });
      expect(existsSync(join(repo, 'mcp/started-v1.txt'))).toBe(true);

      if (changed === 'mcp/lib.mjs') put('mcp/lib.mjs', marking('mcp/started-v2.txt'));
      else put('mcp/server.mjs', `${marking('mcp/started-v2.txt')}${serverScript('lib.mjs')}`);
      const r = await runCli(['run', 'hello'], { env: env(), cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is not trusted');
      expect(existsSync(join(repo, 'mcp/started-v2.txt'))).toBe(false);
    });
  }

  it('a server in another language counts its whole folder, and adk trust says so', async () => {
    put('py/server.py', 'import helper\n');
    put('py/helper.py', 'X = 1\n');
    writeAgentsFile(repo, yaml('python3', ['py/server.py']));
    const t = await runCli(['trust', repo, '--yes'], { env: env() });
    expect(t.stdout).toContain('counts every file under py/');
    put('py/helper.py', 'X = 2\n');
    const r = await runCli(['run', 'hello'], { env: env(), cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not trusted');
  });
});
