import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatModelAgent, InMemoryCheckpointStore, Runner, ScriptedChatModel, userMessage } from '../../src/core/index.js';
import type { TeamConfig } from '../../src/core/config/index.js';
import { sandboxStatus } from '../../src/core/tools/sandbox/bwrap.js';
import { readFileTool, useHookHome } from './hook-home.js';
import { teamHooks } from '../../src/cli/team-hooks.js';
import { trustSettingsFile } from '../../src/cli/commands/trust-settings.js';
import { TrustStore, trustFile } from '../../src/cli/trust.js';

/**
 * Issue 42, item 2 (HIGH): a trusted hook ran tools whose code lives in the workspace. The hook
 * `npm run --silent fmt` was trusted; an approved, sandboxed command rewrote `scripts.fmt` in
 * package.json; the next hook run executed the new script on the host, with the network. Hooks now
 * run inside the shell's sandbox (the workspace writable, nothing else of the machine, no network):
 * what the workspace can change runs with no more power than a sandboxed command already had. A hook
 * that runs on the host (`sandbox: off`, or no sandbox on this machine) may not run a tool that reads
 * code from the workspace adk cannot pin (package.json scripts, a Makefile, conftest.py, a linter's
 * config): it is refused with the reason, never run unchecked.
 */
const home = useHookHome('adk-hook-sandbox-home-');

const store = () => new TrustStore(trustFile({ ...process.env, ADK_HOME: home }));
const config = { hooks: undefined } as unknown as TeamConfig;
const noSandbox = { ADK_BWRAP: '' };
const hasBwrap = !!(await sandboxStatus(process.env, tmpdir())).bwrap;

/** A workspace whose trusted settings run `command` after every read_file, and a folder outside it that only the host sees. */
async function workspace(hook: Record<string, unknown>, files: Record<string, string> = {}): Promise<{ ws: string; outside: string }> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'adk-hook-sandbox-ws-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'adk-hook-sandbox-outside-')));
  mkdirSync(join(ws, '.adk'));
  writeFileSync(join(ws, '.adk', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'read_file', hooks: [{ type: 'command', ...hook }] }] } }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text.replaceAll('OUTSIDE', outside));
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    await trustSettingsFile(join(ws, '.adk', 'settings.json'), store(), true);
  } finally {
    process.stdout.write = write;
  }
  return { ws, outside };
}


/** One read_file call with the folder's hooks as `adk chat` loads them; the notices the person was shown. */
async function callTool(ws: string, env: Record<string, string> = {}): Promise<string[]> {
  const r = await teamHooks(config, ws, { ...process.env, ADK_HOME: home, ...env }, store(), false);
  const notices: string[] = [];
  r.hooks!.onNotice = (t) => notices.push(t);
  const model = new ScriptedChatModel([{ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' }, id: 'c1' }] }, { content: 'ok' }]);
  const agent = new ChatModelAgent({ name: 'a', description: '', model, tools: [readFileTool], middlewares: [r.hooks!.middleware()] });
  const runner = new Runner({ agent, checkpointStore: new InMemoryCheckpointStore() });
  for await (const e of runner.run([userMessage('go')], { checkpointId: 'cp' })) void e;
  return notices;
}

const packageJson = (fmt: string) => JSON.stringify({ name: 'victim', version: '1.0.0', scripts: { fmt } });

describe.skipIf(!hasBwrap)('a trusted hook runs in the sandbox', () => {
  it("`npm run fmt`, its script rewritten by a sandboxed command after trust: the new script runs in the sandbox, never on the host", async () => {
    const { ws, outside } = await workspace({ command: 'npm run --silent fmt' }, { 'package.json': packageJson('touch formatted') });
    // (what the hook said is part of the check: a failure under load shows why the script did not run)
    const said = await callTool(ws);
    expect({ formatted: existsSync(join(ws, 'formatted')), said }).toEqual({ formatted: true, said: [] });
    // What an approved command in the sandbox can do: the workspace is writable.
    writeFileSync(join(ws, 'package.json'), packageJson(`touch ${outside}/pwned; touch in-workspace`));
    await callTool(ws);
    expect(existsSync(join(ws, 'in-workspace'))).toBe(true); // it ran…
    expect(existsSync(join(outside, 'pwned'))).toBe(false); // …but saw nothing of the host
  }, 60_000);

  it.each([
    ['make fmt', { Makefile: 'fmt:\n\ttouch OUTSIDE/pwned; touch in-workspace\n' }],
    ['python3 -m pytest -q -p no:cacheprovider', { 'conftest.py': "import pathlib\npathlib.Path('in-workspace').touch()\npathlib.Path('OUTSIDE/pwned').touch()\n" }],
    ['npx --no-install fmt-tool', { 'package.json': packageJson('true') }],
  ])('`%s`: the code it reads from the workspace runs in the sandbox only', async (command, files) => {
    const { ws, outside } = await workspace({ command }, files);
    if (command.startsWith('npx')) {
      mkdirSync(join(ws, 'node_modules', '.bin'), { recursive: true });
      writeFileSync(join(ws, 'node_modules', '.bin', 'fmt-tool'), `#!/bin/sh\ntouch ${outside}/pwned; touch in-workspace\n`, { mode: 0o755 });
    }
    await callTool(ws);
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
  }, 60_000);

  it('a hook that may touch the host says so (`sandbox: off`): the trust listing shows it, and a script it names runs there once trusted', async () => {
    const { ws, outside } = await workspace({ command: 'sh .adk/notify.sh', sandbox: 'off' }, {});
    writeFileSync(join(ws, '.adk', 'notify.sh'), `touch ${outside}/notified\n`);
    await trustSettingsFile(join(ws, '.adk', 'settings.json'), store(), true).catch(() => {});
    await callTool(ws);
    expect(existsSync(join(outside, 'notified'))).toBe(true);
  }, 60_000);

  it('`sandbox: off` with a tool whose code the workspace holds (npm run): refused with the reason, nothing runs', async () => {
    const { ws, outside } = await workspace({ command: 'npm run --silent fmt', sandbox: 'off' }, { 'package.json': packageJson(`touch ${'OUTSIDE'}/pwned`) });
    const notices = await callTool(ws);
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
    expect(notices.join('\n')).toMatch(/was not run on the host: `npm` runs package\.json's scripts.*in the sandbox/);
  }, 60_000);
});

describe('where no sandbox can be made', () => {
  it('a hook not marked `sandbox: off` does not run at all (it was trusted as a sandboxed one), and says how to run it on the host', async () => {
    const { ws } = await workspace({ command: 'touch ran' }, {});
    const notices = await callTool(ws, noSandbox);
    expect(existsSync(join(ws, 'ran'))).toBe(false);
    expect(notices.join('\n')).toMatch(/hooks run in the sandbox, which cannot run here \(bwrap is not installed.*give it "sandbox": "off"/);
  }, 60_000);

  // Review of issue 42 (H2): `bash -c "npm run fmt"` (the script one quoted word), `node --run`,
  // `python3 -m black` (the working folder first on the import path), `source`, `$(…)` ran on the host.
  it.each([
    ['npm run --silent fmt', "`npm` runs package.json's scripts", { 'package.json': packageJson('touch OUTSIDE/pwned') }],
    ['pnpm fmt', "`pnpm` runs package.json's scripts", { 'package.json': packageJson('touch OUTSIDE/pwned') }],
    ['make fmt', '`make` runs the Makefile', { Makefile: 'fmt:\n\ttouch OUTSIDE/pwned\n' }],
    ['python3 -m pytest -q', '`python -m pytest` runs conftest.py', { 'conftest.py': "open('OUTSIDE/pwned', 'w')\n" }],
    ['python3 -m black .', '`python -m black` imports from the working folder', { 'black.py': "open('OUTSIDE/pwned', 'w')\n" }],
    ['npx eslint .', '`eslint` runs its configuration', { 'eslint.config.js': "require('fs').writeFileSync('OUTSIDE/pwned', '')\n" }],
    ['git commit -qm x', "`git` runs the repository's hooks", {}],
    ['cargo fmt', '`cargo` runs build scripts', {}],
    ['bash -c "npm run fmt"', "`npm` runs package.json's scripts", { 'package.json': packageJson('touch OUTSIDE/pwned') }],
    ['sh -lc \'make lint\'', '`make` runs the Makefile', { Makefile: 'lint:\n\ttouch OUTSIDE/pwned\n' }],
    ['node --run fmt', "`node --run` runs package.json's scripts", { 'package.json': packageJson('touch OUTSIDE/pwned') }],
    ['. ./env.sh', '`.` runs code it reads at run time', { 'env.sh': 'touch OUTSIDE/pwned\n' }],
    ['echo $(cat cmd.txt)', '`$(…)` runs a command adk cannot see', { 'cmd.txt': 'x' }],
  ])('`%s` with sandbox: off is refused on the host (%s)', async (command, why, files) => {
    const { ws, outside } = await workspace({ command, sandbox: 'off' }, files);
    const notices = await callTool(ws, noSandbox);
    expect(existsSync(join(outside, 'pwned'))).toBe(false);
    expect(notices.join('\n')).toContain(why);
  }, 60_000);

  it('with sandbox: off, a script the hook names (fingerprinted with the trust) still runs', async () => {
    const { ws } = await workspace({ command: 'sh .adk/check.sh', sandbox: 'off' }, {});
    writeFileSync(join(ws, '.adk', 'check.sh'), 'touch checked\n');
    await trustSettingsFile(join(ws, '.adk', 'settings.json'), store(), true).catch(() => {});
    await callTool(ws, noSandbox);
    expect(existsSync(join(ws, 'checked'))).toBe(true);
  }, 60_000);
});
