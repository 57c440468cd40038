import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, tempDir, tempHome, textOf, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 5, Must show 5: the file tools refuse `../`, absolute paths and symlinks that leave the
// workspace (the folder adk runs in), through the CLI.
const server = useServer();
const SECRET = 'TOP-SECRET-OUTSIDE-7f3a';

describe('file tools stay inside the workspace', () => {
  it('refuses ../, absolute paths and symlink escapes with clear error results', async () => {
    const outside = tempDir('adk-outside-');
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    const cwd = tempDir('adk-workspace-');
    writeFileSync(join(cwd, 'inside.txt'), 'inside content\n');
    mkdirSync(join(cwd, 'sub'));
    symlinkSync(outside, join(cwd, 'outside-dir'));
    symlinkSync(join(outside, 'secret.txt'), join(cwd, 'secret-link.txt'));
    symlinkSync(join(outside, 'not-there-yet.txt'), join(cwd, 'dangling.txt'));
    symlinkSync(outside, join(cwd, 'sub', 'deep-link'));
    const up = `../${basename(outside)}`;

    const agents = writeAgentsFile(
      tempDir('adk-escape-cfg-'),
      `version: 1
default: files
agents:
  files:
    instruction: You work with files.
    tools: [read_file, write_file, edit_file, list_dir, grep]
`,
    );
    const escapes: Array<{ id: string; name: string; arguments: Record<string, unknown> }> = [
      { id: 'r_up', name: 'read_file', arguments: { path: `${up}/secret.txt` } },
      { id: 'r_abs', name: 'read_file', arguments: { path: join(outside, 'secret.txt') } },
      { id: 'r_etc', name: 'read_file', arguments: { path: '/etc/passwd' } },
      { id: 'r_dirlink', name: 'read_file', arguments: { path: 'outside-dir/secret.txt' } },
      { id: 'r_filelink', name: 'read_file', arguments: { path: 'secret-link.txt' } },
      { id: 'r_deep', name: 'read_file', arguments: { path: 'sub/../sub/deep-link/secret.txt' } },
      { id: 'l_up', name: 'list_dir', arguments: { path: '..' } },
      { id: 'l_link', name: 'list_dir', arguments: { path: 'outside-dir' } },
      { id: 'g_up', name: 'grep', arguments: { pattern: 'TOP-SECRET', path: up } },
      { id: 'g_link', name: 'grep', arguments: { pattern: 'TOP-SECRET', path: 'outside-dir' } },
      { id: 'w_up', name: 'write_file', arguments: { path: `${up}/planted.txt`, content: 'planted' } },
      { id: 'w_abs', name: 'write_file', arguments: { path: join(outside, 'planted-abs.txt'), content: 'planted' } },
      { id: 'w_link', name: 'write_file', arguments: { path: 'outside-dir/planted-link.txt', content: 'planted' } },
      { id: 'w_dangling', name: 'write_file', arguments: { path: 'dangling.txt', content: 'planted' } },
      { id: 'w_filelink', name: 'write_file', arguments: { path: 'secret-link.txt', content: 'overwritten' } },
      { id: 'e_link', name: 'edit_file', arguments: { path: 'secret-link.txt', old: 'TOP', new: 'MODIFIED' } },
      { id: 'e_up', name: 'edit_file', arguments: { path: `${up}/secret.txt`, old: 'TOP', new: 'MODIFIED' } },
    ];
    const allowed = [
      { id: 'ok_read', name: 'read_file', arguments: { path: 'inside.txt' } },
      { id: 'ok_dots', name: 'read_file', arguments: { path: 'sub/../inside.txt' } },
      // Searching the whole workspace does not follow the symlinks out of it.
      { id: 'ok_grep', name: 'grep', arguments: { pattern: 'TOP-SECRET|inside', path: '.' } },
      { id: 'ok_list', name: 'list_dir', arguments: { path: '.' } },
    ];
    server().enqueue({ toolCalls: [...escapes, ...allowed] }, { content: 'Some paths were refused.' });

    const r = await expectExit(['run', '--agents', agents, '--json', 'poke around'], 0, { env: serverEnv(server(), 'test-key-123456', tempHome()), cwd });
    const results = new Map(ofType(r.lines, 'tool_result').map((x) => [x.id, x]));
    expect(results.size).toBe(escapes.length + allowed.length);
    for (const call of escapes) {
      const res = results.get(call.id);
      expect(res, call.id).toBeDefined();
      expect(res.isError, `${call.id}: ${res.content}`).toBe(true);
      expect(res.content, call.id).toMatch(/outside the workspace|symbolic link/);
    }
    for (const call of allowed) expect(results.get(call.id).isError, call.id).toBe(false);
    expect(results.get('ok_read').content).toContain('inside content');
    expect(results.get('ok_dots').content).toContain('inside content');
    expect(results.get('ok_grep').content).toContain('inside.txt');

    // Nothing from outside was read, shown or sent to the model; nothing outside was changed.
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toMatch(/root:x:0:0/);
    expect(textOf(server().chatRequests[1])).not.toContain(SECRET);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(existsSync(join(cwd, 'planted.txt'))).toBe(false);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });
});
