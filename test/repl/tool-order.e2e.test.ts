import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { chatWorkspace, serverChatEnv, startChat, useTmux } from './tmux.js';

// Issue 15, defect 5: parallel calls finish in any order; their rows read in the order they were made.
const server = useServer();
const tmux = useTmux();
const PROMPT = '› Message, or / for commands';

let slow: http.Server;
let slowUrl = '';
beforeAll(async () => {
  slow = http.createServer((_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('slow page body'), 1200));
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/page`;
});
afterAll(() => new Promise<void>((r) => slow.close(() => r())));

describe('tool rows in call order (tmux)', () => {
  it('a slow first call and a fast second one: the first row comes first in the transcript', async () => {
    server().onRequest((req) => {
      const last = req.body.messages.at(-1);
      if (last.role === 'tool') return { content: 'Both done.' };
      return { toolCalls: [{ id: 'c_slow', name: 'fetch_url', arguments: { url: slowUrl } }, { id: 'c_fast', name: 'list_dir', arguments: { path: '.' } }] };
    });
    const { dir, work } = chatWorkspace('adk-order-');
    writeFileSync(join(work, 'marker-file.txt'), 'x');
    writeFileSync(join(work, 'agents.yaml'), 'version: 1\ndefault: helper\nagents:\n  helper:\n    description: Helps.\n    instruction: Help.\n    tools: [fetch_url, list_dir]\n');
    startChat(tmux, 'order', { dir, cwd: work, env: serverChatEnv(dir, server().url, { ADK_FETCH_ALLOW_HOSTS: '127.0.0.1' }) });
    await tmux.waitForScreen('order', (s) => s.includes(PROMPT), 'the prompt');
    tmux.type('order', 'fetch and list');
    tmux.keys('order', 'Enter');
    const screen = await tmux.waitForScreen('order', (s) => s.includes('Both done.'), 'the answer', 30_000, true);
    const fetchRow = screen.indexOf('fetch_url');
    const listRow = screen.indexOf('list_dir');
    expect(fetchRow).toBeGreaterThan(0);
    expect(listRow).toBeGreaterThan(fetchRow);
    expect(screen.indexOf('slow page body')).toBeLessThan(screen.indexOf('marker-file.txt'));
  }, 60_000);
});
