import { describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';

// Issue 12: options of built-in tools in agents.yaml — checked with file:line:col, and each one
// that widens a tool (sandbox off, network, env, private hosts) needs the folder's trust.
const server = useServer();

const withTools = (tools: string) => `version: 1
default: t
agents:
  t:
    description: d
    instruction: i
    tools: [${tools}]
`;

describe('built-in tool options in agents.yaml', () => {
  it('validate names file:line:col for an unknown option, a tool without options and a bad host', async () => {
    const dir = tempDir('adk-topts-');
    const file = writeAgentsFile(dir, withTools('{ shell: { netwrk: true } }, { read_file: { x: 1 } }, { fetch_url: { allow_hosts: ["10.0.0.0/99"] } }'));
    const r = await runCli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toMatch(/agents\.yaml:7:\d+ .*unknown option 'netwrk' of shell \(did you mean 'network'\?\)/);
    expect(r.stderr + r.stdout).toMatch(/agents\.yaml:7:\d+ .*the built-in tool 'read_file' takes no options/);
    expect(r.stderr + r.stdout).toMatch(/agents\.yaml:7:\d+ .*'10\.0\.0\.0\/99' is not a valid CIDR range/);
  });

  it('options that widen a tool need trust, and are listed for the person', async () => {
    const home = tempHome();
    const file = writeAgentsFile(
      tempDir('adk-topts-'),
      withTools('{ shell: { network: true, sandbox: off, env: [GITHUB_TOKEN] } }, { fetch_url: { allow_hosts: [169.254.169.254] } }'),
    );
    const r = await expectExit(['run', '--agents', file, '--json', 'hi'], 2, { env: serverEnv(server(), undefined, home) });
    for (const power of ['runs shell commands outside the sandbox', 'gives shell commands the network', 'passes GITHUB_TOKEN to shell commands', 'lets fetch_url reach 169.254.169.254']) {
      expect(r.stderr).toContain(power);
    }
  });

  it('fetch_url allow_hosts in a trusted file opens that host for that agent only', async () => {
    const home = tempHome();
    const host = new URL(server().url).host;
    const file = writeAgentsFile(tempDir('adk-topts-'), withTools(`{ fetch_url: { allow_hosts: ["${host}"] } }`));
    trustAgentsFile(home, file);
    server().enqueue({ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: `${server().url}/models` } }] }, { content: 'done' });
    const r = await expectExit(['run', '--agents', file, '--json', 'fetch'], 0, { env: serverEnv(server(), undefined, home) });
    const result = ofType(r.lines, 'tool_result')[0];
    expect(result.content).not.toMatch(/refused/);
    expect(result.content).toMatch(/^HTTP 200/m);

    // The same file without the option: refused.
    const plain = writeAgentsFile(tempDir('adk-topts-'), withTools('fetch_url'));
    server().enqueue({ toolCalls: [{ id: 'f', name: 'fetch_url', arguments: { url: `${server().url}/models` } }] }, { content: 'done' });
    const refused = await expectExit(['run', '--agents', plain, '--json', 'fetch'], 0, { env: serverEnv(server(), undefined, home) });
    expect(ofType(refused.lines, 'tool_result')[0].content).toMatch(/refused|private|loopback/i);
  });
});
