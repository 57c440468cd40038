import { existsSync, readdirSync, readFileSync, realpathSync, statSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectExit, ofType, runCli, serverEnv, tempHome, toolMessagesOf, useServer, writeAgentsFile } from '../cli/helpers.js';
import { startMcpHttpServer, type McpHttpTestServer } from '../support/mcp-http-server.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';
import { writeFileSync } from 'node:fs';

// Issue 30: `adk mcp add` → `adk mcp list` → a turn using the server's tool → `adk mcp remove`, as the README says it.
const server = useServer();
const FIXTURE = fileURLToPath(new URL('../tools/fixtures/mcp-server.mjs', import.meta.url));
const TOKEN = 'mcp-bearer-secret-7f3a9c';

const AGENTS = `version: 1
default: helper
agents:
  helper:
    description: A test agent.
    instruction: Use your tools.
    tools: [current_time]
`;

let http: McpHttpTestServer;
// An OTLP collector: spans must not carry the credential either.
let collector: Server;
let otlp = '';
const traces: string[] = [];
beforeAll(async () => {
  http = await startMcpHttpServer();
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url === '/v1/traces') traces.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  otlp = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await http.close();
  await new Promise<void>((r) => collector.close(() => r()));
});

let dir: string;
let home: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-mcp-cli-')));
  home = tempHome();
});
const env = () => ({ ...serverEnv(server(), 'test-key-123456', home), MCP_TOKEN: TOKEN });
const adk = (args: string[], code = 0) => expectExit(args, code, { env: env(), cwd: dir });

/** Every file under `root`, as text. */
function everyFile(root: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push([p, readFileSync(p).toString('latin1')]);
    }
  };
  walk(root);
  return out;
}

describe('adk mcp', () => {
  it('add (this folder, a remote server with a header from the environment) → list → a turn with its tool → remove', async () => {
    const file = writeAgentsFile(dir, AGENTS);
    const added = await adk(['mcp', 'add', '--transport', 'http', 'remote', http.url, '--header', 'Authorization: Bearer ${MCP_TOKEN}']);
    expect(added.stdout).toContain(`Added MCP server remote (${http.url} (http)) to ${file}`);
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toContain('mcp_servers:');
    expect(yaml).toContain('Bearer ${MCP_TOKEN}');
    expect(yaml).toMatch(/\{ mcp: remote \}|- mcp: remote/);
    expect(yaml).not.toContain(TOKEN);

    const list = await adk(['mcp', 'list']);
    expect(list.stdout).toMatch(/remote \(project\): .*✓ connected, \d+ tools/);
    const get = await adk(['mcp', 'get', 'remote', '--json']);
    expect(JSON.parse(get.stdout)).toMatchObject({ name: 'remote', scope: 'project', url: http.url, tools: expect.arrayContaining(['mcp__remote__whoami', 'mcp__remote__slow_count']) });
    expect(get.stdout).not.toContain(TOKEN);

    server().enqueue({ toolCalls: [{ id: 'call_who', name: 'mcp__remote__whoami', arguments: {} }] }, { content: 'Done.' });
    const run = await expectExit(['run', '--json', 'who am i?'], 0, { env: { ...env(), OTEL_EXPORTER_OTLP_ENDPOINT: otlp }, cwd: dir });
    expect(http.headers.at(-1)?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(traces.join('\n')).toContain('execute_tool mcp__remote__whoami');
    expect(traces.join('\n')).not.toContain(TOKEN);
    expect(ofType(run.lines, 'tool_result')[0]).toMatchObject({ name: 'mcp__remote__whoami', content: 'auth: [REDACTED]' });
    expect(toolMessagesOf(server().chatRequests[1]!)[0].content).toBe('auth: [REDACTED]');
    // The token is nowhere: not in the output, the model's requests, the store, or any file adk wrote.
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(JSON.stringify(server().chatRequests.map((r) => r.body))).not.toContain(TOKEN);
    for (const [path, text] of everyFile(home)) expect(text, path).not.toContain(TOKEN);

    const removed = await adk(['mcp', 'remove', 'remote']);
    expect(removed.stdout).toContain('Removed MCP server remote (project)');
    expect(readFileSync(file, 'utf8')).not.toContain('remote');
    expect((await adk(['mcp', 'list'])).stdout).toContain('No MCP servers');
  });

  it('a server of your own (--scope user) serves every team; its file is yours alone (0600)', async () => {
    const added = await adk(['mcp', 'add', '--scope', 'user', 'calc', '--env', 'CALC_TOKEN=user-env-secret-123', '--', process.execPath, FIXTURE]);
    expect(added.stdout).toContain('Added MCP server calc');
    const file = join(home, 'mcp.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const list = await adk(['mcp', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ name: 'calc', scope: 'user', status: expect.stringMatching(/✓ connected/), entry: expect.objectContaining({ env: { CALC_TOKEN: '***' } }) })]);
    // The bundled assistant team (no agents.yaml here) gets its tools.
    server().enqueue({ toolCalls: [{ id: 'call_add', name: 'mcp__calc__add', arguments: { a: 20, b: 22 } }] }, { content: 'It is 42.' });
    const run = await adk(['run', '--json', '--agent', 'assistant', 'add 20 and 22']);
    expect(ofType(run.lines, 'tool_result')[0]).toMatchObject({ name: 'mcp__calc__add', content: '42' });
    await adk(['mcp', 'remove', 'calc']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ servers: {} });
    // Your servers start outside any folder (issue 42): a relative command would name the folder's file.
    const relative = await runCli(['mcp', 'add', '--scope', 'user', 'rel', '--', './node_modules/.bin/server'], { env: env(), cwd: dir });
    expect(relative.code).toBe(2);
    expect(relative.stderr).toMatch(/your MCP server 'rel' names the relative command '\.\/node_modules\/\.bin\/server'.*absolute path/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ servers: {} });
  });

  it('does not reach the servers of an agents.yaml nobody trusted, and explains bad input', async () => {
    writeAgentsFile(dir, `${AGENTS}mcp_servers:\n  sneaky: { command: ${process.execPath}, args: [${FIXTURE}] }\n`.replace('tools: [current_time]', 'tools: [current_time, { mcp: sneaky }]'));
    const list = await adk(['mcp', 'list']);
    expect(list.stdout).toContain('sneaky (project)');
    expect(list.stdout).toContain('not reached: this agents.yaml is not trusted (adk trust)');
    const bad = await runCli(['mcp', 'add', 'x', 'npx', '--transport', 'http'], { env: env(), cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/needs a URL/);
    const dup = await runCli(['mcp', 'add', 'sneaky', 'https://example.com/mcp'], { env: env(), cwd: dir });
    expect(dup.stderr).toMatch(/already has an MCP server 'sneaky'/);
    const login = await runCli(['mcp', 'login', 'sneaky'], { env: env(), cwd: dir });
    expect(login.stderr).toMatch(/belongs to .*agents\.yaml, which is not trusted.*adk trust/);
    expect(existsSync(join(home, 'mcp-auth'))).toBe(false);
  });

  it('a server behind OAuth: a run says what to do, `adk mcp login` logs in through the browser, then its tools work', async () => {
    const oauth = await startOAuthMcpServer();
    try {
      // The person at the browser, scripted: follows the authorization URL to the loopback callback.
      const browser = join(dir, 'browser.mjs');
      writeFileSync(browser, "const r = await fetch(process.argv[2], { redirect: 'manual' }); await fetch(r.headers.get('location'));\n");
      const withBrowser = () => ({ ...env(), ADK_BROWSER: `${process.execPath} ${browser}` });
      writeAgentsFile(dir, AGENTS);
      await adk(['mcp', 'add', 'secure', oauth.mcpUrl]);
      const before = await runCli(['run', '--json', 'who?'], { env: env(), cwd: dir });
      expect(before.code).not.toBe(0);
      expect(before.stderr + before.stdout).toContain('adk mcp login secure');
      expect((await adk(['mcp', 'list'])).stdout).toMatch(/secure \(project\): .*✗ .*adk mcp login secure/);

      const login = await expectExit(['mcp', 'login', 'secure'], 0, { env: withBrowser(), cwd: dir });
      expect(login.stdout).toContain('Logged in to secure.');
      expect((await adk(['mcp', 'list'])).stdout).toMatch(/secure \(project\): .*✓ connected, 1 tools/);
      server().enqueue({ toolCalls: [{ id: 'call_w', name: 'mcp__secure__whoami', arguments: {} }] }, { content: 'ok' });
      const run = await adk(['run', '--json', 'who am i?']);
      expect(ofType(run.lines, 'tool_result')[0]).toMatchObject({ name: 'mcp__secure__whoami', isError: false });
      // The tokens live in ADK_HOME/mcp-auth (0600) and nowhere else adk wrote.
      const [authFile] = readdirSync(join(home, 'mcp-auth'));
      const tokens = JSON.parse(readFileSync(join(home, 'mcp-auth', authFile!), 'utf8')).tokens;
      expect(statSync(join(home, 'mcp-auth', authFile!)).mode & 0o777).toBe(0o600);
      for (const [path, text] of everyFile(home).filter(([p]) => !p.includes('mcp-auth'))) expect(text, path).not.toContain(tokens.access_token);
      expect(run.stdout + run.stderr + login.stdout + login.stderr).not.toContain(tokens.access_token);

      expect((await adk(['mcp', 'logout', 'secure'])).stdout).toMatch(/Logged out of secure/);
    } finally {
      await oauth.close();
    }
  });
});
