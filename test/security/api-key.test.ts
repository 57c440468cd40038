import { describe, expect, it } from 'vitest';
import { trustAgentsFile } from '../support/trust.js';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, storeBytes, tempDir, tempHome, useServer, writeAgentsFile, type CliResult } from '../cli/helpers.js';

// Issue 5, Must show 5: a key from the environment never appears in a saved session, a checkpoint,
// the JSONL output, stderr or an error message.
const server = useServer();
const KEY = 'sk-test-SECRET-abc123xyz';

const AGENTS = `version: 1
default: chat
agents:
  chat:
    instruction: You are a test agent.
    tools: [shell, current_time]
`;

const expectNoKey = (what: string, text: string) => expect(text.includes(KEY), `${what} contains the API key:\n${text.slice(0, 2000)}`).toBe(false);
const expectCleanOutput = (r: CliResult) => {
  expectNoKey('stdout', r.stdout);
  expectNoKey('stderr', r.stderr);
};

describe('the API key is never saved or printed', () => {
  it('an interrupted and resumed session: the key is in no output and nowhere in the SQLite file', async () => {
    const home = tempHome();
    const agents = writeAgentsFile(tempDir(), AGENTS);
    const opts = { env: serverEnv(server(), KEY, home), cwd: tempDir() };
    server().enqueue(
      { toolCalls: [{ id: 'c_time', name: 'current_time', arguments: {} }, { id: 'c_sh', name: 'shell', arguments: { command: 'echo safe' } }] },
      { content: 'All done.' },
    );
    const r = await expectExit(['run', '--agents', agents, '--json', 'what time is it? then echo'], 3, opts);
    const id = sessionIdOf(r);
    // The key was really used: the server received it.
    expect(server().chatRequests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expectCleanOutput(r);
    const saved = storeBytes(home);
    // The session and its checkpoint are in this file, so searching it means something.
    expect(saved).toContain(id);
    expect(saved).toContain('checkpoint');
    expect(saved).toContain('what time is it? then echo');
    expectNoKey('the SQLite store after the interrupt', saved);

    for (const args of [['sessions', 'show', id, '--json'], ['sessions', 'show', id], ['sessions', 'list', '--json']]) {
      expectCleanOutput(await expectExit(args, 0, opts));
    }
    const a = await expectExit(['resume', id, '--approve', '--json'], 0, opts);
    expectCleanOutput(a);
    expect(server().chatRequests[1].headers.authorization).toBe(`Bearer ${KEY}`);
    expectNoKey('the SQLite store after the resume', storeBytes(home));
  });

  it('a server error that echoes the key is redacted in stderr, the error line and the session', async () => {
    const home = tempHome();
    const agents = writeAgentsFile(tempDir(), AGENTS);
    const opts = { env: serverEnv(server(), KEY, home), cwd: tempDir() };
    server().enqueue({ status: 401, errorMessage: `Incorrect API key provided: ${KEY}. Check your key.` });
    const r = await runCli(['run', '--agents', agents, '--json', 'hi'], opts);
    expect(r.code).toBe(1);
    expect(ofType(r.lines, 'error')[0].message).toMatch(/401/);
    expect(r.stderr).toMatch(/401/);
    expectCleanOutput(r);
    expectNoKey('the SQLite store', storeBytes(home));

    server().enqueue({ status: 400, errorMessage: `bad request for key ${KEY}` });
    const t = await runCli(['run', '--agents', agents, 'hi'], opts);
    expect(t.code).toBe(1);
    expectCleanOutput(t);
  });

  for (const [label, keyVar] of [
    ['OPENAI_API_KEY', 'OPENAI_API_KEY'],
    ['a differently named api_key_env variable', 'PROVIDER_CREDENTIAL'],
  ] as const) {
    it(`an approved command that prints the key (${label}) still leaves it out of the saved session`, async () => {
      const home = tempHome();
      const agents = writeAgentsFile(
        tempDir(),
        `version: 1
default: chat
models:
  default: { model: gpt-test, api_key_env: ${keyVar} }
agents:
  chat:
    instruction: You are a test agent.
    tools: [shell]
`,
      );
      const env = keyVar === 'OPENAI_API_KEY' ? serverEnv(server(), KEY, home) : { ...serverEnv(server(), 'unrelated-openai-key', home), [keyVar]: KEY };
      const opts = { env, cwd: tempDir() };
      trustAgentsFile(home, agents); // a key variable of its own choosing is a power the person must grant
      server().enqueue({ toolCalls: [{ id: 'c_env', name: 'shell', arguments: { command: `echo "value=$${keyVar}"` } }] }, { content: 'I printed it.' });
      const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'print the variable'], 3, opts));
      expect(server().chatRequests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      await expectExit(['resume', id, '--approve', '--json'], 0, opts);
      expectNoKey('the SQLite store', storeBytes(home));
      const shown = JSON.parse((await expectExit(['sessions', 'show', id, '--json'], 0, opts)).stdout);
      const tool = shown.messages.find((m: any) => m.role === 'tool');
      // Commands see an allow-listed environment only: the key is not even there to print.
      expect(tool.content).toMatch(/^value=$/m);
    });
  }
});
