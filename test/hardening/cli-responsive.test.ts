import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';

// Issue 12, items 1 and 4, through the built CLI: hostile text work finishes, Ctrl-C always works,
// and module tools see the shell's allow-listed environment, not adk's.
const server = useServer();

let page: http.Server;
let pageUrl = '';
beforeAll(async () => {
  const hostile = '<'.repeat(1_000_000);
  page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(hostile));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((r) => page.close(() => r())));

const MODULES = `
export const envdump = {
  name: 'envdump', description: 'Names of the environment variables it sees.',
  parameters: { type: 'object', properties: {} },
  execute: () => Object.keys(process.env).sort().join(' '),
};
export const spin = {
  name: 'spin', description: 'Burns CPU and never looks at its signal.',
  parameters: { type: 'object', properties: {} },
  execute: () => { for (;;) {} },
};
`;

function moduleTeam(home: string): string {
  const dir = tempDir('adk-modenv-cfg-');
  writeFileSync(join(dir, 'tools.mjs'), MODULES);
  const file = writeAgentsFile(
    dir,
    `version: 1
default: m
agents:
  m:
    description: Uses module tools.
    instruction: Test agent.
    tools: [{ module: ./tools.mjs, export: envdump }, { module: ./tools.mjs, export: spin }]
`,
  );
  trustAgentsFile(home, file);
  return file;
}

describe('adk stays responsive and keeps its secrets under hostile tool work', () => {
  // Catastrophic work would take hours (2^41 backtracking steps, ~10^12 for a quadratic parse of
  // 1 MB): 10 s tells linear from that on a loaded CI machine (2.5 s was seen with the suite running).
  it('a ReDoS grep and a 1 MB page of "<" each finish within 10 s', async () => {
    const ws = tempDir('adk-resp-ws-');
    writeFileSync(join(ws, 'a.txt'), `${'a'.repeat(41)}b\n`);
    const agents = writeAgentsFile(tempDir('adk-resp-cfg-'), 'version: 1\ndefault: t\nagents:\n  t:\n    description: d\n    instruction: i\n    tools: [grep, fetch_url]\n');
    server().enqueue({ toolCalls: [{ id: 'g', name: 'grep', arguments: { pattern: '^(a+)+$' } }] }, { toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: pageUrl } }] }, { content: 'done' });
    const seen = new Map<string, number>();
    const env = { ...serverEnv(server(), undefined, tempHome()), ADK_FETCH_ALLOW_HOSTS: new URL(pageUrl).host };
    const r = await expectExit(['run', '--agents', agents, '--json', 'go'], 0, {
      env,
      cwd: ws,
      onLine: (line) => {
        const ev = JSON.parse(line);
        if (ev.type === 'tool_call' || ev.type === 'tool_result') seen.set(`${ev.type}:${ev.callId ?? ev.id}`, Date.now());
      },
    });
    const results = ofType(r.lines, 'tool_result');
    expect(results.map((t) => t.isError)).toEqual([false, false]);
    expect(results[0].content).toContain('No matches');
    for (const t of results) {
      const callId = t.callId ?? t.id;
      const took = seen.get(`tool_result:${callId}`)! - seen.get(`tool_call:${callId}`)!;
      expect(took, `${t.name} took ${took} ms`).toBeLessThan(10_000);
    }
  });

  it('Ctrl-C during a module tool stuck in CPU work exits within 1 s', async () => {
    const home = tempHome();
    const agents = moduleTeam(home);
    server().enqueue({ toolCalls: [{ id: 's', name: 'spin', arguments: {} }] });
    let sentAt = 0;
    const r = await runCli(['run', '--agents', agents, '--json', 'spin'], {
      env: serverEnv(server(), undefined, home),
      cwd: tempDir('adk-spin-ws-'),
      onLine: (line, child) => {
        if (!sentAt && line.includes('"tool_call"')) {
          // Let the tool start burning before the interrupt.
          setTimeout(() => {
            sentAt = Date.now();
            child.kill('SIGINT');
          }, 300);
        }
      },
    });
    const took = Date.now() - sentAt;
    expect(r.code, r.stderr).toBe(130);
    expect(took).toBeLessThan(1000);
  });

  it('module tools see the allow-listed environment (plus ADK_SHELL_ENV), never keys or tokens', async () => {
    const home = tempHome();
    const agents = moduleTeam(home);
    server().enqueue({ toolCalls: [{ id: 'e', name: 'envdump', arguments: {} }] }, { content: 'done' });
    const env = { ...serverEnv(server(), 'sk-module-key-000111', home), GITHUB_TOKEN: 'ghp_x', AWS_SECRET_ACCESS_KEY: 'aws_x', MY_FLAG: '1', ADK_SHELL_ENV: 'MY_FLAG' };
    const r = await expectExit(['run', '--agents', agents, '--json', 'env'], 0, { env, cwd: tempDir('adk-modenv-ws-') });
    const names: string[] = ofType(r.lines, 'tool_result')[0].content.split(' ');
    expect(names).toContain('PATH');
    expect(names).toContain('MY_FLAG');
    for (const secret of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_BASE_URL', 'ADK_HOME']) expect(names).not.toContain(secret);
  });
});
