import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { tempDir } from './helpers.js';
import { serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 30: in the REPL, `/mcp` shows the servers and their tools, `/server:prompt args` sends an MCP
// prompt, and `@server:uri` attaches a resource (server-everything, over stdio).
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('MCP in the REPL (tmux)', () => {
  it('/mcp, a server prompt as a slash command, and an @server:uri resource', async () => {
    server().onRequest(() => ({ content: 'Noted.' }));
    const dir = tempDir('adk-mcp-repl-');
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    const file = join(work, 'agents.yaml');
    writeFileSync(file, `version: 1\ndefault: helper\nmcp_servers:\n  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }\nagents:\n  helper:\n    description: A test agent.\n    instruction: Help.\n    tools: [{ mcp: everything }]\n`);
    trustAgentsFile(join(dir, 'home'), file);
    startChat(tmux, 'mcp', { dir, cwd: work, env: serverChatEnv(dir, server().url), size: [120, 40] });
    await tmux.waitForScreen('mcp', (s) => s.includes(PROMPT), 'the prompt');

    tmux.type('mcp', '/mcp');
    tmux.keys('mcp', 'Enter');
    await tmux.waitForScreen('mcp', (s) => /everything ✓ \d+ tools/.test(s), 'the server and its tools');

    tmux.type('mcp', '/everything:args-prompt Paris');
    tmux.keys('mcp', 'Enter');
    await tmux.waitForScreen('mcp', (s) => s.includes('Noted.'), 'the answer to the prompt');
    const users = () => server().chatRequests.at(-1)!.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.content as string);
    expect(users().at(-1)).toMatch(/weather.*Paris/i);

    tmux.type('mcp', 'what is in @everything:demo://resource/dynamic/text/1');
    tmux.keys('mcp', 'Enter');
    await tmux.waitForScreen('mcp', (s) => s.split('Noted.').length > 2, 'the second answer');
    expect(users().at(-1)).toContain('<resource server="everything" uri="demo://resource/dynamic/text/1">');
  }, 60_000);

  it('a server’s question (elicitation) is asked in the REPL and its answer goes to the waiting call', async () => {
    server().enqueue({ toolCalls: [{ id: 'call_form', name: 'mcp__everything__trigger-elicitation-request', arguments: {} }] }, { content: 'Thanks, Ada.' });
    const dir = tempDir('adk-mcp-elicit-repl-');
    const work = join(dir, 'work');
    mkdirSync(work, { recursive: true });
    const file = join(work, 'agents.yaml');
    writeFileSync(file, `version: 1\ndefault: helper\nmcp_servers:\n  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }\nagents:\n  helper:\n    description: A test agent.\n    instruction: Help.\n    tools: [{ mcp: everything }]\n`);
    trustAgentsFile(join(dir, 'home'), file);
    startChat(tmux, 'elicit', { dir, cwd: work, env: serverChatEnv(dir, server().url), size: [120, 40] });
    await tmux.waitForScreen('elicit', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('elicit', 'fill in the form');
    tmux.keys('elicit', 'Enter');
    await tmux.waitForScreen('elicit', (s) => s.includes("MCP server 'everything' asks: Please provide inputs"), 'the question');
    await new Promise((r) => setTimeout(r, 600));
    tmux.type('elicit', '{"name":"Ada"}');
    tmux.keys('elicit', 'Enter');
    await tmux.waitForScreen('elicit', (s) => s.includes('Thanks, Ada.'), 'the answer');
    const tool = server().chatRequests.at(-1)!.body.messages.filter((m: any) => m.role === 'tool').at(-1);
    expect(tool.content).toContain('- Name: Ada');
  }, 60_000);
});
