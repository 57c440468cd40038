import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { freePort } from '../support/redis-server.js';
import { trustAgentsFile } from '../support/trust.js';
import { tempDir } from './helpers.js';
import { serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 43, item 1 (HIGH): the REPL (its own ES-module bundle) could not reach any remote MCP server
// or A2A agent: `MCP server 'everything' failed to connect: u.Agent is not a constructor`. The bundle
// imported undici as a default-only module; `adk run` (CommonJS) worked, and no test ran a remote
// server through the REPL. This one does, with server-everything over streamable HTTP.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

async function everythingOverHttp(): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${err}`)), 15_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      if (/listening|running on port/i.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return port;
}

describe('a remote MCP server in the REPL (tmux)', () => {
  it('connects, lists its tools in /mcp, and a call of one of them answers', async () => {
    const port = await everythingOverHttp();
    server().enqueue({ toolCalls: [{ id: 'call_echo', name: 'mcp__everything__echo', arguments: { message: 'over http in the REPL' } }] }, { content: 'Echoed.' });
    const dir = tempDir('adk-mcp-remote-repl-');
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    const file = join(work, 'agents.yaml');
    writeFileSync(file, `version: 1\ndefault: helper\nmcp_servers:\n  everything: { url: "http://127.0.0.1:${port}/mcp" }\nagents:\n  helper:\n    description: A test agent.\n    instruction: Help.\n    tools: [{ mcp: everything }]\n`);
    trustAgentsFile(join(dir, 'home'), file);
    startChat(tmux, 'remote', { dir, cwd: work, env: serverChatEnv(dir, server().url), size: [120, 40] });
    await tmux.waitForScreen('remote', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('remote', '/mcp');
    tmux.keys('remote', 'Enter');
    await tmux.waitForScreen('remote', (s) => /everything ✓ \d+ tools/.test(s) || /failed|not a constructor/.test(s), 'the server and its tools');
    expect(tmux.capture('remote')).toMatch(/everything ✓ \d+ tools/);
    tmux.type('remote', 'echo something');
    tmux.keys('remote', 'Enter');
    await tmux.waitForScreen('remote', (s) => s.includes('Echoed.'), 'the answer');
    const tool = server().chatRequests.at(-1)!.body.messages.filter((m: any) => m.role === 'tool').at(-1);
    expect(tool.content).toContain('over http in the REPL');
  }, 60_000);
});
