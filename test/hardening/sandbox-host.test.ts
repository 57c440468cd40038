import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../src/core/tools/sandbox/bwrap.js';
import { seccompProgram, SECCOMP_REFUSED_CALLS } from '../../src/core/tools/sandbox/seccomp.js';
import { tempDir, useServer } from '../cli/helpers.js';
import { runShellCommands } from './sandbox-run.js';

// Issue 28, HIGH 2 and MEDIUM 4: the sandbox holds against root (CI runs as root), and shows the
// command nothing of the host but the system's folders and the workspace: no Unix socket bound
// outside, no credentials in $HOME, no other process's environment.
const server = useServer();
const status = await sandboxStatus();
const KEY = `sk-sandbox-${randomBytes(8).toString('hex')}`;
const sockets: Server[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});

/** Runs the commands through `adk run` (shell calls of a scripted model) with the key in the environment; outputs by command. */
async function runCommands(commands: string[], opts: { home?: string; ws?: string; shell?: string; path?: string } = {}) {
  const env = { ...(opts.home ? { HOME: opts.home } : {}), ...(opts.path ? { PATH: opts.path } : {}) };
  return (await runShellCommands(server(), commands, { shell: opts.shell, ws: opts.ws, key: KEY, env })).out;
}

function listen(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer((c) => c.end('HELLO-FROM-HOST\n'));
    sockets.push(s);
    s.once('error', reject);
    s.listen(path, () => resolve());
  });
}

const connect = (path: string) =>
  `"${process.execPath}" -e "require('net').connect('${path}').on('data', d => console.log('got', String(d).trim())).on('error', e => console.log('refused', e.code))"`;

describe('the sandbox against root and the host', () => {
  it('the seccomp program refuses the escape calls, and other architectures whole', () => {
    const p = seccompProgram('x64')!;
    expect(p.length % 8).toBe(0);
    // Instruction 1 compares the architecture; its false branch lands on the last (EPERM) return.
    const count = p.length / 8;
    expect(p.readUInt8(8 + 3)).toBe(count - 1 - 2);
    expect(p.readUInt32LE((count - 1) * 8 + 4)).toBe(0x00050001);
    expect(SECCOMP_REFUSED_CALLS).toEqual(expect.arrayContaining(['mount', 'umount2', 'pivot_root', 'keyctl', 'ptrace']));
    expect(seccompProgram('ia32')).toBeUndefined();
  });

  it.runIf(status.bwrap)('as root or not, a command has no capability, is not root, and cannot remount the system writable', async () => {
    const name = `adk-sbx-root-${randomBytes(4).toString('hex')}`;
    const out = await runCommands([
      `mount -o remount,rw,bind / && echo pwned > /var/tmp/${name} && echo REMOUNTED; mount -o remount,rw,bind /usr && echo REMOUNTED-USR; echo tried`,
      "grep CapEff /proc/self/status; echo uid=$(id -u)",
      `unshare -U true && echo NEW-USERNS || echo userns-refused`,
      `"${process.execPath}" -e "try { require('fs').writeFileSync('/etc/${name}', 'x'); console.log('ETC-WRITTEN') } catch (e) { console.log('etc-refused', e.code) }"`,
    ]);
    expect(out[0]).toContain('tried');
    expect(out[0]).not.toContain('REMOUNTED');
    expect(existsSync(`/var/tmp/${name}`)).toBe(false);
    expect(out[1]).toMatch(/CapEff:\s+0000000000000000/);
    expect(out[1]).not.toMatch(/uid=0\b/);
    expect(out[2]).toContain('userns-refused');
    expect(out[3]).toContain('etc-refused');
    expect(existsSync(`/etc/${name}`)).toBe(false);
  });

  it.runIf(status.bwrap)('no Unix socket bound outside the workspace is reachable: not in /run, /tmp or $HOME', async () => {
    const home = tempDir('adk-sbx-home-');
    const runDir = `/run/adk-sbx-${randomBytes(4).toString('hex')}`;
    mkdirSync(runDir);
    try {
      const paths = [join(runDir, 'redis.sock'), join(tempDir('adk-sbx-sock-'), 'dbus.sock'), join(home, 'agent.sock')];
      for (const p of paths) await listen(p);
      const out = await runCommands(paths.map(connect), { home });
      for (const o of out) {
        expect(o).toContain('refused');
        expect(o).not.toContain('HELLO-FROM-HOST');
      }
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });

  it.runIf(status.bwrap)("$HOME's credentials are not readable, also when the workspace is $HOME; $HOME writes stay inside", async () => {
    const home = tempDir('adk-sbx-home-');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), 'AWS-SECRET-MATERIAL\n');
    writeFileSync(join(home, '.netrc'), 'NETRC-SECRET-MATERIAL\n');
    const name = `adk-sbx-home-${randomBytes(4).toString('hex')}`;
    const commands = ['cat ~/.ssh/id_rsa ~/.aws/credentials ~/.netrc; echo read-done', `touch ~/${name} && echo home-write-private`];
    const elsewhere = await runCommands(commands, { home });
    const inHome = await runCommands(['cat .ssh/id_rsa .aws/credentials .netrc; ls -a .ssh; echo read-done'], { home, ws: home });
    for (const o of [elsewhere[0], inHome[0]]) {
      expect(o).toContain('read-done');
      expect(o).not.toMatch(/PRIVATE-KEY|AWS-SECRET|NETRC-SECRET/);
    }
    expect(elsewhere[1]).toContain('home-write-private');
    expect(existsSync(join(home, name))).toBe(false);
  });

  it.runIf(status.bwrap)('read_paths shows what the person lists, and still hides credentials under it', async () => {
    const home = tempDir('adk-sbx-home-');
    mkdirSync(join(home, 'notes'));
    writeFileSync(join(home, 'notes', 'todo.txt'), 'NOTES-VISIBLE\n');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
    const cmds = ['cat ~/notes/todo.txt; echo done', 'cat ~/.ssh/id_rsa; echo done'];
    const listed = await runCommands(cmds, { home, shell: "{ shell: { read_paths: ['~/notes'] } }" });
    expect(listed[0]).toContain('NOTES-VISIBLE');
    const whole = await runCommands(cmds, { home, shell: "{ shell: { read_paths: ['~'] } }" });
    expect(whole[0]).toContain('NOTES-VISIBLE');
    expect(whole[1]).not.toContain('PRIVATE-KEY');
    const none = await runCommands(cmds, { home });
    expect(none[0]).not.toContain('NOTES-VISIBLE');
  });

  it.runIf(status.bwrap)("programs on PATH under $HOME (nvm, ~/.local/bin) still run inside, over the private $HOME", async () => {
    const home = tempDir('adk-sbx-home-');
    mkdirSync(join(home, '.local', 'bin'), { recursive: true });
    writeFileSync(join(home, '.local', 'bin', 'hello-adk'), '#!/bin/sh\necho hello-from-home-bin\n', { mode: 0o755 });
    const out = await runCommands(['hello-adk'], { home, path: `${join(home, '.local', 'bin')}:${process.env.PATH}` });
    expect(out[0]).toContain('hello-from-home-bin');
  });

  it.runIf(status.bwrap)('a link planted in the workspace (node_modules/.bin -> /, a relative read path) does not bring the host back into the sandbox', async () => {
    const home = tempDir('adk-sbx-home-');
    writeFileSync(join(home, 'secret.txt'), 'HOME-SECRET-MATERIAL\n');
    const ws = tempDir('adk-sbx-ws-');
    mkdirSync(join(ws, 'node_modules'));
    symlinkSync('/', join(ws, 'node_modules', '.bin'));
    mkdirSync(join(ws, 'vendor'));
    symlinkSync('/', join(ws, 'vendor', 'lib'));
    const cmds = ['cat ~/secret.txt; echo done', 'ls /run /tmp | head -3; echo listed'];
    const viaPath = await runCommands(cmds, { home, ws, path: `${join(ws, 'node_modules', '.bin')}:${process.env.PATH}` });
    const viaReadPath = await runCommands(cmds, { home, ws, shell: "{ shell: { read_paths: ['vendor/lib'] } }" });
    for (const out of [viaPath, viaReadPath]) {
      expect(out[0]).toContain('done');
      expect(out[0]).not.toContain('HOME-SECRET');
      expect(out[1]).not.toMatch(/adk-sbx|vitest|tsx/);
    }
  });

  it.runIf(status.bwrap)("git's credential store is hidden; its settings are not", async () => {
    const home = tempDir('adk-sbx-home-');
    mkdirSync(join(home, '.config', 'git'), { recursive: true });
    writeFileSync(join(home, '.config', 'git', 'credentials'), 'https://user:ghp_FAKE_TOKEN_MATERIAL@github.com\n');
    writeFileSync(join(home, '.config', 'git', 'config'), '[user]\n\tname = Ada\n');
    const out = await runCommands(['cat ~/.config/git/credentials; echo done', 'cat ~/.config/git/config'], { home });
    expect(out[0]).not.toContain('ghp_FAKE');
    expect(out[1]).toContain('name = Ada');
  });

  it.runIf(status.bwrap && process.getuid?.() === 0)('as root, a file only root may read in /etc stays unreadable inside', async () => {
    const file = `/etc/adk-sbx-rootonly-${randomBytes(4).toString('hex')}.conf`;
    writeFileSync(file, 'client-key-data: ROOT-ONLY-SECRET\n', { mode: 0o600 });
    try {
      const out = await runCommands([`cat ${file}; echo done`]);
      expect(out[0]).toContain('done');
      expect(out[0]).not.toContain('ROOT-ONLY-SECRET');
    } finally {
      rmSync(file, { force: true });
    }
  });

  it.runIf(status.bwrap)('no /proc/*/environ inside shows the API key, and no other process is there to read', async () => {
    const out = await runCommands([
      "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null | grep -c -e OPENAI_API_KEY -e sk-sandbox; echo pids=$(ls -d /proc/[0-9]* | wc -l)",
    ]);
    expect(out[0]).toMatch(/^0\n/);
    // The command's shell, the loop and a few helpers: never adk or the rest of the machine.
    expect(Number(/pids=(\d+)/.exec(out[0])![1])).toBeLessThan(10);
  });
});
