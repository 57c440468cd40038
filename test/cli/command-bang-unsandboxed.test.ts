import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/index.js';
import type { InterruptDetails } from '../../src/core/interrupt.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { CommandTurn, type CommandTurnHost } from '../../src/cli/chat/command-turn.js';
import { findCustomCommands, type CustomCommand } from '../../src/cli/chat/custom-commands.js';
import { TrustStore } from '../../src/cli/trust.js';
import type { Team } from '../../src/cli/team.js';

// Security review, LOW: a command file's `` !`cmd` `` asked "Allow shell: cmd?" even where shell has no
// sandbox. Its approval says so as the core's approvals do (team.alwaysAskReason), and is marked
// `alwaysAsks` so no session grant answers it in the REPL.
const REASON = 'shell commands run without a sandbox here (bwrap is not installed), so shell asks before every command';

function askedFor(team: Partial<Team>): Promise<InterruptDetails[]> {
  const root = mkdtempSync(join(tmpdir(), 'adk-cmd-nosandbox-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  mkdirSync(join(home, 'commands'), { recursive: true });
  writeFileSync(join(home, 'commands', 'go.md'), 'Now: !`git status`\n');
  const [command] = findCustomCommands(work, { ADK_HOME: home });
  const shell: Tool = { name: 'shell', description: '', parameters: { type: 'object' }, execute: () => ({ content: 'ran' }) };
  const host: CommandTurnHost = {
    team: { workspace: work, modelName: 'gpt-test', modelConfigs: [], shell, ...team } as unknown as Team,
    policy: () => ({ allows: () => false }),
    loadModelTeam: () => Promise.reject(new Error('not here')),
    expand: (prompt) => Promise.resolve(prompt),
    startTurn: async function* () {},
    trust: new TrustStore(join(home, 'trust.json')),
    env: {},
  };
  return collect(new CommandTurn(command as CustomCommand, '', '/go', host).start(new AbortController().signal));
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<InterruptDetails[]> {
  const out: InterruptDetails[] = [];
  for await (const e of events) out.push(...(e.action?.interrupted?.contexts ?? []).map((c) => c.info as InterruptDetails));
  return out;
}

describe("a command file's !`cmd` approval", () => {
  it('says the command runs unsandboxed, and must be asked, when shell has no sandbox', async () => {
    const [info] = await askedFor({ alwaysAsk: ['shell'], alwaysAskReason: REASON });
    expect(info).toMatchObject({ kind: 'approval', tool: 'shell', alwaysAsks: true });
    expect(info!.message).toBe(`Allow shell: git status? (${REASON}.)`);
  });

  it('is as before where the sandbox works', async () => {
    const [info] = await askedFor({ alwaysAsk: [], alwaysAskReason: undefined });
    expect(info!.message).toBe('Allow shell: git status?');
    expect(info!.alwaysAsks).toBeUndefined();
  });
});
