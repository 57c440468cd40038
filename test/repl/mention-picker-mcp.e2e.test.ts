import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { sleep } from './helpers.js';
import { chatWorkspace, clearsIn, quitChat, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 32, live `@` picker: MCP resources are among its rows. Typing `@` and part of a resource's
// name (server-everything over stdio, started on demand) shows it, Tab puts `@server:uri` in the
// input, and sending attaches the resource's text to the model's request. 0 full clears.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';
const PANE = 'pickmcp';
const EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MENTION = 'everything:demo://resource/static/document/architecture.md';
const DOC = readFileSync(join(dirname(EVERYTHING), 'docs', 'architecture.md'), 'utf8');

/** The picker's rows: the `@…` lines under the input line. */
function pickerRows(screen: string): string[] {
  const lines = screen.split('\n');
  const at = lines.findIndex((l) => l.startsWith('› '));
  return lines.slice(at + 1).map((l) => l.trim()).filter((l) => l.startsWith('@'));
}

describe('the live @ picker lists MCP resources (tmux)', () => {
  it('@archit finds the server’s resource, Tab inserts it, and the request carries its text', async () => {
    server().onRequest(() => ({ content: 'Read it.' }));
    const { dir, work } = chatWorkspace('adk-pickmcp-');
    const file = join(work, 'agents.yaml');
    writeFileSync(file, `version: 1\ndefault: helper\nmcp_servers:\n  everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, stdio] }\nagents:\n  helper:\n    description: A test agent.\n    instruction: Help.\n    tools: [{ mcp: everything }]\n`);
    trustAgentsFile(join(dir, 'home'), file);
    const raw = join(dir, 'raw.out');
    startChat(tmux, PANE, { dir, cwd: work, raw, env: serverChatEnv(dir, server().url), size: [120, 40] });
    await tmux.waitForScreen(PANE, (s) => s.includes(PROMPT), 'the prompt');

    // Typed at once, before the server's resources can have arrived: the rows must follow them in.
    tmux.type(PANE, 'explain @archit');
    await tmux.waitForScreen(PANE, (s) => s.includes('› explain @archit') && pickerRows(s).includes(`@${MENTION}`), 'the resource in the picker');
    tmux.keys(PANE, 'Tab');
    await tmux.waitForScreen(PANE, (s) => s.includes(`› explain @${MENTION}`), 'the mention in the input');
    await sleep(100);
    tmux.keys(PANE, 'Enter');
    await tmux.waitForScreen(PANE, (s) => s.includes('Read it.'), 'the answer');
    const sent = String(server().chatRequests.at(-1)!.body.messages.at(-1).content);
    expect(sent).toContain(`explain @${MENTION}`);
    expect(sent).toContain('<resource server="everything" uri="demo://resource/static/document/architecture.md">');
    expect(sent).toContain(DOC.trim().split('\n')[0]);
    expect(clearsIn(readFileSync(raw, 'latin1'))).toBe(0);
    await quitChat(tmux, PANE);
    await tmux.waitForScreen(PANE, (s) => s.includes('Continue it with'), 'adk to exit');
  }, 60_000);
});
