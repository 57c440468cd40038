import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TrustStore } from '../../src/cli/trust.js';

/**
 * `adk trust --revoke DIR` forgets every file trusted under DIR: the agents file, but also the
 * files trusted by hash in its subfolders (`.adk/settings.json`, `.adk/commands/**.md`), which an
 * entry records with their own folder, not the project's.
 */
describe('TrustStore.revoke', () => {
  it('revokes every trusted file under the folder, on a path boundary only', () => {
    const root = mkdtempSync(join(tmpdir(), 'adk-revoke-'));
    const repo = join(root, 'repo');
    const sibling = join(root, 'repo-other');
    const files = [
      join(repo, 'agents.yaml'),
      join(repo, '.mcp.json'),
      join(repo, '.adk', 'settings.json'),
      join(repo, '.adk', 'settings.local.json'),
      join(repo, '.adk', 'commands', 'go.md'),
      join(repo, '.adk', 'commands', 'frontend', 'component.md'),
    ];
    const kept = [join(sibling, 'agents.yaml'), join(sibling, '.adk', 'commands', 'go.md')];
    const store = new TrustStore(join(root, 'home', 'trusted-folders.json'));
    for (const f of [...files, ...kept]) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, 'x');
      store.trust(f, 'a'.repeat(64));
    }
    expect(store.revoke(repo)).toBe(files.length);
    for (const f of files) expect(store.isTrusted(f, 'a'.repeat(64))).toBe(false);
    // `repo` is not a prefix of `repo-other` on a path boundary.
    for (const f of kept) expect(store.isTrusted(f, 'a'.repeat(64))).toBe(true);
    // A subfolder revokes only what is under it; a single file can be named too.
    expect(store.revoke(join(sibling, '.adk'))).toBe(1);
    expect(store.revoke(join(sibling, 'agents.yaml'))).toBe(1);
    expect(store.list()).toEqual([]);
  });
});
