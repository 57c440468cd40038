import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/index.js';
import type { ApprovalPolicy } from '../../src/core/agents/run-context.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { allowedToolRules, withCommandGrants } from '../../src/cli/chat/command-allowed-tools.js';
import { bangCommands, bangOutputText, replaceBangs } from '../../src/cli/chat/command-bang.js';
import { CommandTurn, type CommandGrant, type CommandTurnHost } from '../../src/cli/chat/command-turn.js';
import { findCustomCommands, splitTools, type CustomCommand } from '../../src/cli/chat/custom-commands.js';
import { resolveCommandModel } from '../../src/cli/chat/command-model.js';
import { formatRule, ruleAllows, type AllowRule } from '../../src/core/agents/allow-rules.js';
import { TrustStore } from '../../src/cli/trust.js';
import type { Team } from '../../src/cli/team.js';

describe('allowed-tools', () => {
  it('splits on commas outside parentheses and maps Claude Code names to adk rules', () => {
    expect(splitTools('Bash(git status:*), Read, Bash(echo a,b)')).toEqual(['Bash(git status:*)', 'Read', 'Bash(echo a,b)']);
    const { rules, ignored } = allowedToolRules(['Bash(git status:*)', 'Read', 'Write(./docs/**)', 'Edit', 'Bash', 'shell(npm test*)', 'read_file', 'Bash(*)', 'Grep', '!!', 'Glob(x)', 'Task']);
    // Claude's `cmd:*` is `cmd` and `cmd …`; its Read covers the tools that read a file, Write and Edit those that write one.
    expect(rules.map(formatRule)).toEqual(['shell(git status)', 'shell(git status *)', 'read_file', 'grep', 'write_file(docs/*)', 'edit_file(docs/*)', 'edit_file', 'write_file', 'shell', 'shell(npm test*)', 'read_file', 'shell', 'grep']);
    expect(ignored).toEqual(['!!', 'Glob(x)', 'Task']);
  });

  it('grants only what the rules match, and a refusal (deny rule, plan mode) still wins', () => {
    const { rules } = allowedToolRules(['Bash(echo:*)']);
    const base: ApprovalPolicy = { allows: () => false, refuses: (c) => (String((c.arguments as { command?: string }).command).startsWith('echo secret') ? 'denied' : undefined) };
    const p = withCommandGrants(base, rules, tmpdir())!;
    const call = (command: string) => ({ tool: 'shell', arguments: { command }, agentName: 'a' });
    expect(p.allows(call('echo hi'))).toBe(true);
    expect(p.allows(call('ls'))).toBe(false);
    expect(p.allows(call('echo hi; rm -rf x'))).toBe(false);
    expect(p.allows({ tool: 'write_file', arguments: { path: 'a' }, agentName: 'a' })).toBe(false);
    expect(p.refuses!({ ...call('echo secret'), readOnly: false })).toBe('denied');
    expect(withCommandGrants(base, [], tmpdir())).toBe(base);
  });
});

describe('!`cmd` in a command file', () => {
  it('finds inline and whole-line commands and puts their output in their place', () => {
    const text = 'Status: !`git status --short`\n!`echo hi`\nnot `code` nor !`` here';
    expect(bangCommands(text)).toEqual(['git status --short', 'echo hi']);
    expect(replaceBangs(text, (i) => `<${i}>`)).toBe('Status: <0>\n<1>\nnot `code` nor !`` here');
    expect(bangOutputText('hi\n\nexit code: 0')).toBe('hi');
    expect(bangOutputText('boom\nexit code: 2')).toBe('boom\nexit code: 2');
    expect(bangOutputText('a\u001b[2Jb')).toBe('a␛[2Jb');
  });
});

/** A command file, its CommandTurn and a host that records what reached the model. */
function setup(file: string, o: { scope?: 'user' | 'project'; policy?: ApprovalPolicy; policyOf?: (rules?: readonly AllowRule[]) => ApprovalPolicy } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'adk-cmd-turn-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  const dir = o.scope === 'user' ? join(home, 'commands') : join(work, '.adk', 'commands');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'go.md'), file);
  const [command] = findCustomCommands(work, { ADK_HOME: home });
  const ran: string[] = [];
  const shell: Tool = { name: 'shell', description: '', parameters: { type: 'object' }, execute: ({ command: c }: { command: string }) => { ran.push(c); return { content: `out of ${c}\nexit code: 0` }; } };
  const started: Array<{ input: unknown; grant: CommandGrant }> = [];
  const trust = new TrustStore(join(home, 'trust.json'));
  const host: CommandTurnHost = {
    team: { workspace: work, modelName: 'gpt-test', modelConfigs: [], shell } as unknown as Team,
    policy: (rules) => o.policyOf?.(rules) ?? o.policy ?? { allows: () => false },
    loadModelTeam: () => Promise.reject(new Error('not here')),
    expand: (prompt) => Promise.resolve(prompt),
    startTurn: async function* (input, _s, _i, grant) {
      started.push({ input, grant });
    },
    trust,
    env: {},
  };
  const turn = new CommandTurn(command as CustomCommand, 'v2', '/go v2', host);
  return { turn, ran, started, trust, command: command! };
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const interrupts = (events: AgentEvent[]) => events.flatMap((e) => e.action?.interrupted?.contexts ?? []);
const errors = (events: AgentEvent[]) => events.flatMap((e) => (e.error ? [e.error.message] : []));
const signal = () => new AbortController().signal;

describe('a command turn', () => {
  it('asks before each !`cmd`, runs the approved ones, and sends the prompt with their output', async () => {
    const { turn, ran, started } = setup('Ship $1.\nNow: !`git status`\n');
    const first = await collect(turn.start(signal()));
    const asked = interrupts(first);
    expect(asked.map((c) => (c.info as { arguments: unknown }).arguments)).toEqual([{ command: 'git status' }]);
    expect(ran).toEqual([]);
    expect(started).toEqual([]);
    expect(turn.answers(asked.map((c) => c.id))).toBe(true);
    await collect(turn.answer({ [asked[0]!.id]: { approved: true } }, signal()));
    expect(ran).toEqual(['git status']);
    expect(started[0]!.input).toBe('Ship v2.\nNow: out of git status');
  });

  it('a rejection stops the command: nothing runs, nothing is sent, the person is told', async () => {
    const { turn, ran, started } = setup('!`echo a`\n!`echo b`\n');
    const asked = interrupts(await collect(turn.start(signal())));
    expect(asked).toHaveLength(2);
    const end = await collect(turn.answer({ [asked[0]!.id]: { approved: true }, [asked[1]!.id]: { approved: false, reason: 'no' } }, signal()));
    expect(errors(end)[0]).toMatch(/\/go was not run: you rejected `echo b`: no\. Nothing was sent to the model\./);
    expect(ran).toEqual([]);
    expect(started).toEqual([]);
  });

  it("a rule that allows the call runs it unasked; a deny rule stops the command before anything runs", async () => {
    const allowed = setup('!`echo hi`\n', { policy: { allows: () => true } });
    const events = await collect(allowed.turn.start(signal()));
    expect(interrupts(events)).toEqual([]);
    expect(allowed.ran).toEqual(['echo hi']);
    expect(allowed.started[0]!.input).toBe('out of echo hi');
    const denied = setup('!`echo hi`\n', { policy: { allows: () => true, refuses: () => 'A deny rule (shell(echo*)) forbids this shell call; it was not run. Do without it or ask the user.' } });
    const end = await collect(denied.turn.start(signal()));
    expect(errors(end)[0]).toContain('may not run (A deny rule (shell(echo*)) forbids this shell call; it was not run)');
    expect(denied.ran).toEqual([]);
    expect(denied.started).toEqual([]);
  });

  it('front matter that is not valid YAML: the command does not run, and the error names file:line:col', async () => {
    const t = setup('---\ndescription: ok\nallowed-tools: [unclosed\nmodel: nosuch\n---\nHi !`echo hi`\n', { policy: { allows: () => true } });
    const events = await collect(t.turn.start(signal()));
    expect(errors(events)[0]).toMatch(/^\/go was not run: its front matter is not valid YAML: .*go\.md:\d+:\d+: /);
    expect(t.ran).toEqual([]);
    expect(t.started).toEqual([]);
  });

  it("its granted allowed-tools cover its own !`cmd` lines (as in Claude Code); other lines still ask", async () => {
    // A host whose policy is the command's rules alone (what chat-host layers over the session's).
    const ruled = (rules: readonly AllowRule[] = []) => ({ allows: (call: { tool: string; arguments: unknown }) => rules.some((r) => ruleAllows(r, call.tool, call.arguments)) });
    const t = setup('---\nallowed-tools: Bash(git status:*)\n---\n!`git status --short`\n!`rm -rf x`\n', { scope: 'user', policyOf: ruled });
    const events = await collect(t.turn.start(signal()));
    const asked = interrupts(events).map((c) => (c.info as { arguments?: { command?: string } }).arguments?.command);
    expect(asked).toEqual(['rm -rf x']);
    expect(t.ran).toEqual([]);
  });

  it("the person's own command file grants its allowed-tools for the turn; a project's asks to be trusted first", async () => {
    const mine = setup('---\nallowed-tools: Bash(echo:*)\n---\nGo.\n', { scope: 'user' });
    await collect(mine.turn.start(signal()));
    expect(mine.started[0]!.grant.rules.map(formatRule)).toEqual(['shell(echo)', 'shell(echo *)']);

    const theirs = setup('---\nallowed-tools: Bash(echo:*)\n---\nGo.\n');
    const asked = interrupts(await collect(theirs.turn.start(signal())));
    expect(asked).toHaveLength(1);
    expect((asked[0]!.info as { message: string }).message).toContain('shell(echo *)');
    expect(theirs.started).toEqual([]);
    await collect(theirs.turn.answer({ [asked[0]!.id]: 'n' }, signal()));
    expect(theirs.started[0]!.grant.rules).toEqual([]);

    const again = setup('---\nallowed-tools: Bash(echo:*)\n---\nGo.\n');
    const q = interrupts(await collect(again.turn.start(signal())));
    await collect(again.turn.answer({ [q[0]!.id]: 'y' }, signal()));
    expect(again.started[0]!.grant.rules.map(formatRule)).toEqual(['shell(echo)', 'shell(echo *)']);
    expect(again.trust.isTrusted(again.command.file, (await import('node:crypto')).createHash('sha256').update((await import('node:fs')).readFileSync(again.command.file)).digest('hex'))).toBe(true);
  });

  it('an unknown model stops the command before anything runs', async () => {
    expect(await resolveCommandModel('demo', 'gpt-test', [], {})).toEqual({ model: 'demo' });
    expect(await resolveCommandModel('gpt-test', 'gpt-test', [], {})).toEqual({ model: 'gpt-test' });
    const demoTeam = [{ name: 'd', provider: 'demo' } as never];
    expect(await resolveCommandModel('nope-model', 'demo', demoTeam, {})).toEqual({ error: "model 'nope-model' is not offered by this team's model endpoints (they offer: demo)" });
  });
});
