import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMemory, memoryChoices, memoryFile } from '../../src/cli/chat/memory.js';
import { tempDir, tempHome } from './helpers.js';

// Issue 48: a Claude Code user's folder has a CLAUDE.md and no AGENTS.md. `#` adds to the file the
// folder has, and /memory says once which other instruction files every agent also reads.
describe('memory files', () => {
  it('`#` adds to CLAUDE.md when that is the folder’s file; AGENTS.md otherwise; /memory names the others', () => {
    const env = { ADK_HOME: tempHome() };
    const claudeOnly = tempDir('adk-memory-');
    writeFileSync(join(claudeOnly, 'CLAUDE.md'), '# Rules\n');
    expect(addMemory('always use pnpm', 'project', claudeOnly, env)).toBe(join(claudeOnly, 'CLAUDE.md'));
    expect(readFileSync(join(claudeOnly, 'CLAUDE.md'), 'utf8')).toBe('# Rules\n- always use pnpm\n');
    expect(existsSync(join(claudeOnly, 'AGENTS.md'))).toBe(false);

    const both = tempDir('adk-memory-');
    writeFileSync(join(both, 'AGENTS.md'), 'a\n');
    writeFileSync(join(both, 'CLAUDE.md'), 'c\n');
    writeFileSync(join(both, 'CLAUDE.local.md'), 'l\n');
    expect(memoryFile('project', both, env)).toBe(join(both, 'AGENTS.md'));
    expect(memoryChoices(both, env)[0]!.detail).toBe(`${join(both, 'AGENTS.md')} (shared with the repository); also read: ${join(both, 'CLAUDE.md')}, ${join(both, 'CLAUDE.local.md')}`);

    const none = tempDir('adk-memory-');
    expect(memoryFile('project', none, env)).toBe(join(none, 'AGENTS.md'));
  });
});
