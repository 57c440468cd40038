import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTeam, UntrustedAgentsFileError } from '../../src/cli/team.js';
import { TrustStore } from '../../src/cli/trust.js';
import { openRepl } from './app.js';
import { KEY, writeSlowMcpTeam } from './helpers.js';
import { replFixture } from './fixture.js';

// A team with an MCP server that takes a while to start: `/model` loads a new team for 2.5 s or more.
const f = replFixture((work) => void writeSlowMcpTeam(join(work, 'slow-team.yaml'), 2.5));

/** The team's file, trusted as a person would (`adk trust`): it starts an MCP server. */
async function trustedOptions() {
  const trust = new TrustStore(join(f.home, 'trusted.json'));
  const options = { ...f.teamOptions, agentsFile: join(f.work, 'slow-team.yaml'), trust };
  await loadTeam(options).then(
    (t) => t.close(),
    (e: unknown) => {
      if (!(e instanceof UntrustedAgentsFileError)) throw e;
      trust.trust(e.file, e.hash);
    },
  );
  return options;
}

/** This process's MCP servers (the fixture, once the shell in front of it has exec'd). */
const mcpServers = (): string => {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', 'mcp-server.mjs'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('a team switch and a message typed while it loads', () => {
  it('/model still loading, then a message: the message goes to the new model, after the switch', async () => {
    const app = await openRepl(f.stores, await trustedOptions(), f.home);
    try {
      await app.until('gpt-test · session');
      f.server.enqueue({ content: 'Hello from whichever model.' });
      await app.type('/model gpt-other');
      await app.press(KEY.enter);
      await app.type('hello');
      await app.press(KEY.enter);
      await app.until((s) => s.includes('Hello from whichever model.') && !app.busy(), 15_000);
      expect(app.screen()).toContain('Model: gpt-other.');
      const asked = f.server.chatRequests.at(-1)!;
      expect(asked.body.model).toBe('gpt-other');
    } finally {
      app.unmount();
      await app.start.host.close(); // the MCP servers of the team it ended on
    }
  }, 30_000);

  it('leaving while /model loads: the team it was loading is closed, not left running', async () => {
    const app = await openRepl(f.stores, await trustedOptions(), f.home);
    await app.until('gpt-test · session');
    await app.type('/model gpt-other');
    await app.press(KEY.enter);
    const asked = Date.now();
    app.unmount();
    await app.start.host.close();
    // Past the time the load takes (2.5 s and the server's own start): a team installed after leaving would show now.
    await new Promise((r) => setTimeout(r, Math.max(0, asked + 6000 - Date.now())));
    expect(mcpServers()).toBe('');
  }, 30_000);
});
