import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInWorkspace } from '../../src/core/tools/workspace.js';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(() => sb.cleanup());

describe('resolveInWorkspace', () => {
  it('resolves relative and absolute paths inside the root to real paths', async () => {
    await sb.write('a/b.txt', 'x');
    expect(await resolveInWorkspace(sb.root, 'a/b.txt')).toBe(path.join(sb.root, 'a/b.txt'));
    expect(await resolveInWorkspace(sb.root, path.join(sb.root, 'a/b.txt'))).toBe(path.join(sb.root, 'a/b.txt'));
    expect(await resolveInWorkspace(sb.root, 'a/../a/./b.txt')).toBe(path.join(sb.root, 'a/b.txt'));
    expect(await resolveInWorkspace(sb.root, '.')).toBe(sb.root);
  });

  it('refuses ../ escapes and absolute paths outside the root', async () => {
    await expect(resolveInWorkspace(sb.root, '../outside/secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, 'a/../../outside/secret.txt', { allowMissing: true })).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, path.join(sb.outside, 'secret.txt'))).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, '/etc/passwd')).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, '..')).rejects.toThrow(/outside the workspace/);
  });

  it('refuses symlinks whose real target is outside, for existing and new files', async () => {
    await symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'link.txt'));
    await symlink(sb.outside, path.join(sb.root, 'outdir'));
    await expect(resolveInWorkspace(sb.root, 'link.txt')).rejects.toThrow(/outside the workspace \(through a symbolic link\)/);
    await expect(resolveInWorkspace(sb.root, 'outdir/secret.txt')).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, 'outdir/new.txt', { allowMissing: true })).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, 'outdir/deep/new.txt', { allowMissing: true })).rejects.toThrow(/outside the workspace/);
  });

  it('follows symlinks that stay inside', async () => {
    await sb.write('real/file.txt', 'x');
    await symlink(path.join(sb.root, 'real'), path.join(sb.root, 'alias'));
    expect(await resolveInWorkspace(sb.root, 'alias/file.txt')).toBe(path.join(sb.root, 'real/file.txt'));
    expect(await resolveInWorkspace(sb.root, 'alias/new/x.txt', { allowMissing: true })).toBe(path.join(sb.root, 'real/new/x.txt'));
  });

  it('refuses devices (also through a symlink inside the workspace) and FIFOs', async () => {
    await symlink('/dev/zero', path.join(sb.root, 'zero'));
    await expect(resolveInWorkspace(sb.root, 'zero')).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(sb.root, '/dev/zero')).rejects.toThrow(/outside the workspace/);
    // A workspace rooted at /dev still refuses its devices.
    await expect(resolveInWorkspace('/dev', 'zero')).rejects.toThrow(/is a device/);
    execFileSync('mkfifo', [path.join(sb.root, 'pipe')]);
    await expect(resolveInWorkspace(sb.root, 'pipe')).rejects.toThrow(/is a FIFO/);
  });

  it('reports missing paths, broken links and file-as-folder clearly', async () => {
    await expect(resolveInWorkspace(sb.root, 'nope.txt')).rejects.toThrow(/'nope.txt' does not exist/);
    expect(await resolveInWorkspace(sb.root, 'x/y/z.txt', { allowMissing: true })).toBe(path.join(sb.root, 'x/y/z.txt'));
    await symlink(path.join(sb.root, 'missing-target'), path.join(sb.root, 'dangling'));
    await expect(resolveInWorkspace(sb.root, 'dangling', { allowMissing: true })).rejects.toThrow(/symbolic link whose target does not exist/);
    await sb.write('file.txt', 'x');
    await expect(resolveInWorkspace(sb.root, 'file.txt/inner.txt', { allowMissing: true })).rejects.toThrow(/is not a directory/);
    await expect(resolveInWorkspace(sb.root, '')).rejects.toThrow(/empty/);
    await mkdir(path.join(sb.root, 'd'));
    expect(await resolveInWorkspace(sb.root, 'd/')).toBe(path.join(sb.root, 'd'));
  });
});
