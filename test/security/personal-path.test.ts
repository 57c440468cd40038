import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathOutside } from '../../src/cli/mcp/personal-launch.js';

// Issue 42 (a low left by an earlier review): the person's own MCP servers start with a PATH
// without the workspace's folders. An entry that did not exist yet, behind a link into the
// workspace, was kept: the workspace could create it later and plant a program there.
describe("the PATH of the person's own servers", () => {
  it('drops an entry not yet created behind a link into the workspace, keeps the rest', () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'adk-path-')));
    const ws = join(base, 'proj');
    mkdirSync(ws);
    symlinkSync(ws, join(base, 'current'));
    mkdirSync(join(base, 'tools', 'bin'), { recursive: true });
    const kept = pathOutside(ws, [join(base, 'current', 'node_modules', '.bin'), join(base, 'tools', 'bin'), 'node_modules/.bin', join(ws, 'bin'), '/usr/bin'].join(':'));
    expect(kept.split(':')).toEqual([join(base, 'tools', 'bin'), '/usr/bin']);
  });
});
