import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/index.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { CommandTurn, type CommandGrant, type CommandTurnHost } from '../../src/cli/chat/command-turn.js';
import * as customCommands from '../../src/cli/chat/custom-commands.js';
import { findCustomCommands, type CustomCommand } from '../../src/cli/chat/custom-commands.js';
import { formatRule } from '../../src/core/agents/allow-rules.js';
import { TrustStore } from '../../src/cli/trust.js';
import type { Team } from '../../src/cli/team.js';

/**
 * The security review of custom commands: a project's command file is trusted by the bytes its
 * rules came from (one read), a symlinked one is not read, and a `` !`cmd` ``'s output is redacted
 * before the person sees it or the model gets it.
 */

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const GOOD = '---\nallowed-tools: Bash(echo:*)\n---\nGo.\n';
const EVIL = '---\nallowed-tools: Bash(rm:*)\n---\nGo.\n';

function workspace() {
  const root = mkdtempSync(join(tmpdir(), 'adk-cmd-sec-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  const dir = join(work, '.adk', 'commands');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { root, work, home, dir };
}

function host(work: string, home: string, o: { shellOut?: string; env?: NodeJS.ProcessEnv } = {}) {
  const started: Array<{ input: unknown; grant: CommandGrant }> = [];
  const shell: Tool = { name: 'shell', description: '', parameters: { type: 'object' }, execute: () => ({ content: o.shellOut ?? 'ok\nexit code: 0' }) };
  const trust = new TrustStore(join(home, 'trust.json'));
  const h: CommandTurnHost = {
    team: { workspace: work, modelName: 'gpt-test', modelConfigs: [], shell } as unknown as Team,
    policy: () => ({ allows: () => true }),
    loadModelTeam: () => Promise.reject(new Error('not here')),
    expand: (prompt) => Promise.resolve(prompt),
    startTurn: async function* (input, _s, _i, grant) {
      started.push({ input, grant });
    },
    trust,
    env: o.env ?? {},
  };
  return { h, started, trust };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}
const interrupts = (events: AgentEvent[]) => events.flatMap((e) => e.action?.interrupted?.contexts ?? []);
const signal = () => new AbortController().signal;

describe('a command file is trusted by the bytes its rules came from', () => {
  it('a file swapped after it was read: the person trusts the version whose rules are granted, never the swapped-in one', async () => {
    const { work, home, dir } = workspace();
    const file = join(dir, 'go.md');
    writeFileSync(file, GOOD);
    const [command] = findCustomCommands(work, { ADK_HOME: home });
    writeFileSync(file, EVIL); // a process in the workspace swaps it while the command runs
    const { h, started, trust } = host(work, home);
    const turn = new CommandTurn(command!, '', '/go', h);
    const q = interrupts(await collect(turn.start(signal())));
    expect((q[0]!.info as { message: string }).message).toContain('shell(echo), shell(echo *)');
    await collect(turn.answer({ [q[0]!.id]: 'y' }, signal()));
    expect(started.at(-1)!.grant.rules.map(formatRule)).toEqual(['shell(echo)', 'shell(echo *)']);
    // What was trusted is what was approved (and granted): the first version, not what is on disk now.
    expect(trust.isTrusted(file, sha(GOOD))).toBe(true);
    expect(trust.isTrusted(file, sha(EVIL))).toBe(false);
  });

  it("rules read from one version are never granted on another version's trust", async () => {
    const { work, home, dir } = workspace();
    const file = join(dir, 'go.md');
    writeFileSync(file, GOOD);
    const { h, started, trust } = host(work, home);
    trust.trust(file, sha(GOOD)); // the person trusted the harmless version earlier
    writeFileSync(file, EVIL);
    const [command] = findCustomCommands(work, { ADK_HOME: home }); // parsed: the rm rules
    writeFileSync(file, GOOD); // swapped back before the trust check reads it
    const turn = new CommandTurn(command!, '', '/go', h);
    const asked = interrupts(await collect(turn.start(signal())));
    // The rm rules are not trusted: asked, not granted.
    expect(asked).toHaveLength(1);
    expect((asked[0]!.info as { message: string }).message).toContain('shell(rm), shell(rm *)');
    expect(started).toEqual([]);
    await collect(turn.answer({ [asked[0]!.id]: 'n' }, signal()));
    expect(started[0]!.grant.rules).toEqual([]);
  });

  it('keeps the hash of exactly the bytes it parsed', () => {
    const { work, home, dir } = workspace();
    writeFileSync(join(dir, 'go.md'), GOOD);
    const [command] = findCustomCommands(work, { ADK_HOME: home });
    expect((command as CustomCommand & { sha256?: string }).sha256).toBe(sha(GOOD));
  });

  it('a symlinked command file is not read, listed or raced in', () => {
    const { root, work, home, dir } = workspace();
    const outside = join(root, 'elsewhere.md');
    writeFileSync(outside, GOOD);
    symlinkSync(outside, join(dir, 'go.md'));
    expect(findCustomCommands(work, { ADK_HOME: home })).toEqual([]);
    // The file read itself refuses a link (it may replace the file after the folder was listed).
    const read = (customCommands as unknown as { readCommandFile?: (file: string, dir: string, scope: 'project') => unknown }).readCommandFile;
    expect(typeof read).toBe('function');
    expect(read!(join(dir, 'go.md'), dir, 'project')).toBeUndefined();
    writeFileSync(join(dir, 'real.md'), GOOD);
    expect(read!(join(dir, 'real.md'), dir, 'project')).toMatchObject({ name: '/real', sha256: sha(GOOD) });
    // A file that grows past the cap is not read at all.
    writeFileSync(join(dir, 'big.md'), 'x'.repeat(64 * 1024 + 1));
    expect(read!(join(dir, 'big.md'), dir, 'project')).toBeUndefined();
    expect(readFileSync(join(dir, 'real.md'), 'utf8')).toBe(GOOD);
  });
});

describe("a !`cmd`'s output", () => {
  it('is redacted before it is shown and before it is put in the prompt', async () => {
    const key = 'sk-live-secret-0123456789abcdef';
    const { work, home, dir } = workspace();
    writeFileSync(join(dir, 'env.md'), 'Env: !`cat .env`\n');
    const [command] = findCustomCommands(work, { ADK_HOME: home });
    const { h, started } = host(work, home, { shellOut: `OPENAI_API_KEY=${key}\nexit code: 0`, env: { OPENAI_API_KEY: key } });
    const events = await collect(new CommandTurn(command!, '', '/env', h).start(signal()));
    const rows = events.flatMap((e) => (e.output?.message?.role === 'tool' ? [e.output.message.message] : []));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(String(rows[0]!.content)).toContain('[REDACTED]');
    expect(JSON.stringify(started)).not.toContain(key);
    expect(String(started[0]!.input)).toContain('OPENAI_API_KEY=[REDACTED]');
  });
});
