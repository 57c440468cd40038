import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/core/conversation/conversation.js';
import { drainRun, type EventSink } from '../../src/core/conversation/drain-run.js';
import { lockedNewId } from '../../src/cli/session-access.js';
import { loadTeam } from '../../src/cli/team.js';
import { openAdkStores } from '../../src/core/store/index.js';
import { expectExit, ofType, serverEnv, sessionIdOf, shellApprovalAgents, storeBytes, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';

// Issue 28, LOW 3 and LOW 4: a call whose arguments hold a secret. Text output shows it redacted, as
// --json does; and what runs after an approval is what was approved, never the `[REDACTED]` the
// store keeps in its place.
const server = useServer();
const KEY = 'sk-approve-SECRET-4d9e1f7a';
/** The model puts the key in a command (it read it somewhere); the command writes it to a file. */
const COMMAND = `printf %s '${KEY}' > out.txt`;

describe('approvals of a call whose arguments hold a secret', () => {
  it('adk run (text): the approval line and the call line show the secret redacted, as --json does', async () => {
    const home = tempHome();
    const ws = tempDir('adk-apsec-ws-');
    const agents = writeAgentsFile(tempDir('adk-apsec-cfg-'), shellApprovalAgents());
    const opts = { env: serverEnv(server(), KEY, home), cwd: ws };
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: COMMAND } }] });
    const text = await expectExit(['run', '--agents', agents, 'write it'], 3, opts);
    expect(text.stderr).toMatch(/⏸ approval: .*\[REDACTED\]/);
    expect(text.stderr).toMatch(/→ shell .*\[REDACTED\]/);
    expect(text.stderr + text.stdout).not.toContain(KEY);
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: COMMAND } }] });
    const json = await expectExit(['run', '--agents', agents, '--json', 'write it'], 3, opts);
    expect(json.stderr + json.stdout).not.toContain(KEY);
    expect(ofType(json.lines, 'interrupt')[0].interrupts[0].arguments.command).toContain('[REDACTED]');
  });

  it('adk resume --approve in a new process does not run `[REDACTED]` in place of the secret: the call is refused, saying why', async () => {
    const home = tempHome();
    const ws = tempDir('adk-apsec-ws-');
    const agents = writeAgentsFile(tempDir('adk-apsec-cfg-'), shellApprovalAgents());
    const opts = { env: serverEnv(server(), KEY, home), cwd: ws };
    server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: COMMAND } }] }, { content: 'understood' });
    const id = sessionIdOf(await expectExit(['run', '--agents', agents, '--json', 'write it'], 3, opts));
    expect(storeBytes(home)).not.toContain(KEY);
    const r = await expectExit(['resume', id, '--approve', '--json'], 0, opts);
    const result = ofType(r.lines, 'tool_result')[0];
    // Neither the redacted command nor anything else ran.
    expect({ ran: existsSync(join(ws, 'out.txt')) ? readFileSync(join(ws, 'out.txt'), 'utf8') : 'nothing', isError: result.isError }).toEqual({ ran: 'nothing', isError: true });
    expect(result.content).toMatch(/not run: its arguments held a secret, which adk does not store/);
    // The model is told too; the store still holds no key.
    expect(JSON.stringify(server().chatRequests[1]!.body)).toMatch(/not run: its arguments held a secret/);
    expect(storeBytes(home)).not.toContain(KEY);
  });

  it('approved in the same process (as the REPL does): the command runs with the secret it was shown with, and the store holds none', async () => {
    const home = tempHome();
    const dir = tempDir('adk-apsec-live-');
    const file = writeAgentsFile(dir, shellApprovalAgents());
    const env = { ...serverEnv(server(), KEY, home) } as Record<string, string>;
    const stores = await openAdkStores(`sqlite://${home}/adk.sqlite`, { env });
    const team = await loadTeam({ agentsFile: file, cwd: dir, env });
    const { lease } = await lockedNewId(stores);
    const conv = await Conversation.create(stores, team, lease);
    const silent: EventSink = { delta() {}, thought() {}, message() {}, transfer() {}, retry() {}, error() {}, interrupt() {}, compaction() {}, todos() {} };
    try {
      server().enqueue({ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: COMMAND } }] }, { content: 'written' });
      const first = await drainRun(await conv.startTurn('write it', new AbortController().signal), silent);
      expect(first.status).toBe('interrupted');
      await conv.finishTurn(first);
      expect(storeBytes(home)).not.toContain(KEY);
      const target = first.interrupts[0]!.id;
      const second = await drainRun(await conv.resumeTurn({ [target]: { approved: true } }, new AbortController().signal), silent);
      expect(second.status, second.error?.message).toBe('completed');
      await conv.finishTurn(second);
      expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe(KEY);
      expect(storeBytes(home)).not.toContain(KEY);
    } finally {
      await conv.close();
      await team.close();
      await stores.close();
    }
  });
});
