import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { trustAgentsFile } from '../support/trust.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 28, MEDIUM 1: /proc/PID/environ shows the environment block a process was started with,
// whatever process.env says later. A module tool (a worker thread inside adk) can read
// /proc/self/environ and an unsandboxed command /proc/$PPID/environ: neither may find a key there.
// Counts, not the text: tool output is redacted on its way, so a leaked key would print as [REDACTED].
const server = useServer();
const KEY = 'sk-environ-KEY-7f3a9c21d4';
const TOKEN = 'ghp_environTOKEN_5e8b1d02';
const CREDENTIAL = 'cred-environ-PROVIDER-91c4';

const MODULE = `
import { readFileSync } from 'node:fs';
const secrets = ${JSON.stringify({ KEY, TOKEN, CREDENTIAL })};
const count = (text, s) => text.split(s).length - 1;
export const environ = {
  name: 'environ', description: 'Counts the secrets in /proc/self/environ and in process.env.',
  parameters: { type: 'object', properties: {} },
  execute: () => {
    const block = readFileSync('/proc/self/environ', 'latin1');
    const env = Object.values(process.env).join('\\n');
    return Object.entries(secrets).map(([k, s]) => k + ':environ=' + count(block, s) + ',env=' + count(env, s)).join(' ');
  },
};
`;

/** How many times each secret occurs in /proc/$PPID/environ (adk) and in every /proc/PID/environ this user can read. */
const grepCommand = [KEY, TOKEN, CREDENTIAL]
  .map((s, i) => `echo "s${i}:ppid=$(tr '\\0' '\\n' < /proc/$PPID/environ | grep -c -F -- '${s}'),all=$(cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c -F -- '${s}')"`)
  .join('; ');

function team(home: string): string {
  const dir = tempDir('adk-environ-cfg-');
  writeFileSync(join(dir, 'tools.mjs'), MODULE);
  const file = writeAgentsFile(
    dir,
    `version: 1
default: m
models:
  default: { model: gpt-test, api_key_env: PROVIDER_CREDENTIAL }
agents:
  m:
    description: Reads the environment block.
    instruction: Test agent.
    tools: [{ module: ./tools.mjs, export: environ }, { shell: { sandbox: off } }]
    approval: []
`,
  );
  trustAgentsFile(home, file);
  return file;
}

describe('secrets are not in the environment block of adk', () => {
  it('a module tool finds no key in /proc/self/environ nor in process.env; an unsandboxed command none in /proc/$PPID/environ or any /proc/*/environ', async () => {
    const home = tempHome();
    const agents = team(home);
    server().enqueue({ toolCalls: [{ id: 'm', name: 'environ', arguments: {} }, { id: 's', name: 'shell', arguments: { command: grepCommand } }] }, { content: 'done' });
    const env = { ...serverEnv(server(), KEY, home), GITHUB_TOKEN: TOKEN, PROVIDER_CREDENTIAL: CREDENTIAL };
    const r = await expectExit(['run', '--agents', agents, '--json', 'look'], 0, { env, cwd: tempDir('adk-environ-ws-') });
    // The keys were really in adk's environment: the provider's key (api_key_env) reached the server.
    expect(server().chatRequests[0].headers.authorization).toBe(`Bearer ${CREDENTIAL}`);
    const results = ofType(r.lines, 'tool_result');
    const moduleOut = results.find((t) => t.id === 'm')?.content;
    const shellOut = results.find((t) => t.id === 's')?.content;
    expect({ moduleOut, shellOut: shellOut?.split('\n').slice(0, 3).join(' ') }).toEqual({
      moduleOut: 'KEY:environ=0,env=0 TOKEN:environ=0,env=0 CREDENTIAL:environ=0,env=0',
      shellOut: 's0:ppid=0,all=0 s1:ppid=0,all=0 s2:ppid=0,all=0',
    });
  });

  it('the clearing itself: values stay in process.env (and reach children), copies under other names are cleared too, other variables are untouched', () => {
    const module = fileURLToPath(new URL('../../dist/cli/boot/environ-block.js', import.meta.url));
    const names = fileURLToPath(new URL('../../dist/core/store/secret-names.js', import.meta.url));
    const script = `
      const { scrubEnvironBlock } = await import(${JSON.stringify(module)});
      const { isSecretName } = await import(${JSON.stringify(names)});
      const { readFileSync } = await import('node:fs');
      const { execFileSync } = await import('node:child_process');
      const outcome = scrubEnvironBlock(isSecretName);
      const block = readFileSync('/proc/self/environ', 'latin1');
      const child = execFileSync('sh', ['-c', 'printf %s "$MY_API_KEY"'], { encoding: 'utf8' });
      console.log(JSON.stringify({ outcome, inBlock: block.includes(${JSON.stringify(KEY)}), plain: block.includes('PLAIN_VAR=visible-value'), env: [process.env.MY_API_KEY, process.env.COPY_OF_IT, process.env.PLAIN_VAR], child }));
    `;
    // Review follow-up: a copy inside another value (a connection URL) is cleared too.
    const env = { PATH: process.env.PATH, MY_API_KEY: KEY, COPY_OF_IT: KEY, DB_URL: `postgres://u:${KEY}@db/app`, PLAIN_VAR: 'visible-value' };
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' }));
    expect(out).toEqual({
      outcome: { scrubbed: expect.arrayContaining(['MY_API_KEY', 'COPY_OF_IT', 'DB_URL']) },
      inBlock: false,
      plain: true,
      env: [KEY, KEY, 'visible-value'],
      child: KEY,
    });
    // Nothing secret in the environment: nothing to do.
    const none = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { PATH: process.env.PATH, PLAIN_VAR: 'visible-value' }, encoding: 'utf8' }));
    expect(none.outcome).toEqual({ scrubbed: [] });
  });
});
