import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PinnedCode } from '../../src/core/tools/module-host/pinned-code.js';
import { ToolRegistry } from '../../src/core/tools/registry.js';
import { run } from '../tools/helpers.js';

// Issue 42, item 5: the module code check and the module's load were two reads of the file, so a
// writer that swapped it between them (a sandboxed background command; won 2 in 100 tries) had its
// own code run as the trusted tool. The bytes that are checked are now the bytes that run: each
// start copies the trusted files, hashes the copies, and binds them read-only over their paths in
// the module tool's sandbox.
const GOOD = `export default { name: 'noop', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => 'ok' };\n`;
// The swapped-in code leaves a mark in the workspace (writable in the sandbox) when it loads.
const EVIL = `import { writeFileSync } from 'node:fs';\nwriteFileSync('evil-ran.txt', 'x');\n${GOOD}`;
const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function workspace() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'adk-module-race-')));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'tool.js'), GOOD);
  return dir;
}

/** A team's registry as adk builds it for a trusted file: the guard re-reads the code; the trusted hashes pin it. */
function registry(dir: string, guard: () => Promise<string | undefined>) {
  const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir, codeGuard: guard, trustedCode: { dir, files: { 'tool.js': sha256(GOOD) } } });
  cleanup.push(() => r.close());
  return r;
}
const honestGuard = (dir: string) => async () => (sha256(readFileSync(join(dir, 'tool.js'))) === sha256(GOOD) ? undefined : 'tool.js (changed)');

describe('a trusted module tool swapped around its code check', () => {
  it('swapped the moment after the check passed: refused, and none of the new code runs', async () => {
    const dir = workspace();
    const check = honestGuard(dir);
    const r = registry(dir, async () => {
      const verdict = await check();
      writeFileSync(join(dir, 'tool.js'), EVIL); // the writer wins the race: right after the check
      return verdict;
    });
    await expect(r.resolveOne({ module: './tool.js' })).rejects.toThrow(/tool\.js changed since it was trusted/);
    expect(existsSync(join(dir, 'evil-ran.txt'))).toBe(false);
  });

  // The copies are what the module's process compiles (its loader hooks), not what the path holds at load.
  for (const [kind, main, lib, req] of [
    ['an ES module', 'tool.mjs', 'lib.mjs', `import { value } from './lib.mjs';`],
    ['a CommonJS module', 'tool.cjs', 'lib.cjs', `const { value } = require('./lib.cjs');`],
  ] as const) {
    const setupSwap = (swap: (dir: string, evil: string) => void) => {
      const dir = workspace();
      const exp = main.endsWith('.cjs') ? 'module.exports =' : 'export default';
      const libOf = (v: string) => (lib.endsWith('.cjs') ? `exports.value = ${JSON.stringify(v)};\n` : `export const value = ${JSON.stringify(v)};\n`);
      const tool = `${req}\n${exp} { name: 'which', description: 'x', parameters: { type: 'object', properties: {} }, execute: async () => value };\n`;
      writeFileSync(join(dir, main), tool);
      writeFileSync(join(dir, lib), libOf('trusted'));
      const evil = `${main.endsWith('.cjs') ? "require('node:fs')" : "(await import('node:fs'))"}.writeFileSync('evil-ran.txt', 'x');\n${libOf('swapped')}`;
      const pin = PinnedCode.prototype.pin;
      vi.spyOn(PinnedCode.prototype, 'pin').mockImplementation(function (this: PinnedCode) {
        const pinned = pin.call(this);
        swap(dir, evil); // the writer wins the race: after the check and the copy
        return pinned;
      });
      cleanup.push(() => vi.restoreAllMocks());
      const files = { [main]: sha256(tool), [lib]: sha256(libOf('trusted')) };
      const guard = async () => undefined; // this race is past the guard; the copies decide
      const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir, codeGuard: guard, trustedCode: { dir, files } });
      cleanup.push(() => r.close());
      return { dir, r };
    };

    it(`${kind} and the file it imports, rewritten after the check and its copy: the checked bytes run`, async () => {
      const { dir, r } = setupSwap((d, evil) => writeFileSync(join(d, lib), evil));
      const [t] = await r.resolveOne({ module: `./${main}` });
      expect((await run(t!, {})).content).toBe('trusted');
      expect(readFileSync(join(dir, lib), 'utf8')).toContain('swapped');
      expect(existsSync(join(dir, 'evil-ran.txt'))).toBe(false);
    });

    it(`${kind} whose import is swapped for a link to other code after the copy: nothing outside the trusted files loads`, async () => {
      const { dir, r } = setupSwap((d, evil) => {
        writeFileSync(join(d, `evil-${lib}`), evil);
        symlinkSync(`evil-${lib}`, join(d, 'link.tmp'));
        renameSync(join(d, 'link.tmp'), join(d, lib)); // as `mv -T` does: the path now leads elsewhere
      });
      await expect(r.resolveOne({ module: `./${main}` })).rejects.toThrow(/evil-lib\.c?m?js is not part of the code that was trusted/);
      expect(existsSync(join(dir, 'evil-ran.txt'))).toBe(false);
    });
  }

  it('a link in a folder counted whole is checked by its text, as it was fingerprinted (it blocked every load)', async () => {
    const dir = workspace();
    symlinkSync('docs/guide.md', join(dir, 'README.md'));
    const files = { 'tool.js': sha256(GOOD), 'README.md': 'link:docs/guide.md' };
    const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir, codeGuard: async () => undefined, trustedCode: { dir, files } });
    cleanup.push(() => r.close());
    const [t] = await r.resolveOne({ module: './tool.js' });
    expect((await run(t!, {})).content).toBe('ok');
  });

  it('a trusted file removed before the copy is refused, not skipped', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'lib.mjs'), 'export const v = 1;\n');
    const tool = `import './lib.mjs';\n${GOOD}`;
    writeFileSync(join(dir, 'tool.js'), tool);
    const files = { 'tool.js': sha256(tool), 'lib.mjs': sha256('export const v = 1;\n') };
    rmSync(join(dir, 'lib.mjs'));
    const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir, codeGuard: async () => undefined, trustedCode: { dir, files } });
    cleanup.push(() => r.close());
    await expect(r.resolveOne({ module: './tool.js' })).rejects.toThrow(/lib\.mjs changed since it was trusted/);
  });

  it('the copies are removed when their process ends, and a killed adk\'s are swept; never kept inside the workspace', async () => {
    const dir = workspace();
    const stale = mkdtempSync(join(realpathSync(tmpdir()), 'adk-pinned-999999-')); // no such process
    const r = new ToolRegistry({ workspaceRoot: dir, baseDir: dir, codeGuard: async () => undefined, trustedCode: { dir, files: { 'tool.js': sha256(GOOD) } } });
    expect(existsSync(stale)).toBe(false);
    await r.resolveOne({ module: './tool.js' });
    const mine = () => readdirSync(realpathSync(tmpdir())).filter((n) => n.startsWith(`adk-pinned-${process.pid}-`));
    expect(mine().length).toBeGreaterThan(0);
    await r.close();
    expect(mine()).toEqual([]);
    expect(() => new PinnedCode({ dir, files: {} }, [realpathSync(tmpdir()), '/tmp'])).toThrow(/temporary folder outside the workspace/);
  });

  it('a process that cannot start (bwrap missing) is a clear load error, not a crash', async () => {
    const { hostModule } = await import('../../src/core/tools/module-host/module-host.js');
    const dir = workspace();
    await expect(hostModule(join(dir, 'tool.js'), 'default', './tool.js', {}, undefined, async () => ({ bwrap: '/nonexistent/bwrap', spec: { workspace: dir, network: false } }))).rejects.toThrow(/stopped while loading.*ENOENT/s);
  });

  it(`a swap loop beside repeated loads: the swapped code never runs (${Number(process.env.ADK_RACE_TRIES ?? 40)} tries)`, async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'evil.js'), EVIL);
    writeFileSync(join(dir, 'good.js'), GOOD);
    // Swaps by rename as fast as it can: tool.js is the good code, then the evil, then the good again.
    const swapper = spawn(process.execPath, ['-e', `
      const fs = require('node:fs'); const d = ${JSON.stringify(dir)};
      for (;;) { fs.copyFileSync(d + '/evil.js', d + '/next.js'); fs.renameSync(d + '/next.js', d + '/tool.js');
                 fs.copyFileSync(d + '/good.js', d + '/next.js'); fs.renameSync(d + '/next.js', d + '/tool.js'); }`], { stdio: 'ignore' });
    cleanup.push(() => swapper.kill('SIGKILL'));
    let loaded = 0;
    let refused = 0;
    let wins = 0;
    for (let i = 0; i < Number(process.env.ADK_RACE_TRIES ?? 40); i++) {
      const r = registry(dir, honestGuard(dir));
      try {
        const [tool] = await r.resolveOne({ module: './tool.js' });
        expect(tool!.name).toBe('noop');
        loaded++;
      } catch (e) {
        // Refused by the check, or by bwrap when the path was swapped while it bound the copy over it.
        expect(String(e)).toMatch(/changed\)? since|stopped while loading: bwrap: Can.t bind mount/);
        refused++;
      }
      await r.close();
      if (existsSync(join(dir, 'evil-ran.txt'))) {
        wins++;
        rmSync(join(dir, 'evil-ran.txt'));
      }
    }
    swapper.kill('SIGKILL');
    renameSync(join(dir, 'good.js'), join(dir, 'tool.js'));
    expect({ wins, tried: loaded + refused }).toEqual({ wins: 0, tried: Number(process.env.ADK_RACE_TRIES ?? 40) });
    expect(loaded, 'the loop never let a load through: it proves nothing').toBeGreaterThan(0);
  }, 240_000);
});
