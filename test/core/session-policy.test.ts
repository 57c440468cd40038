import { describe, expect, it } from 'vitest';
import { ChatModelAgent, ScriptedChatModel } from '../../src/core/index.js';
import { Conversation, openAdkStores } from '../../src/core/entries/conversation.js';
import { lockSession } from '../../src/core/store/index.js';
import { parseSessionPolicy } from '../../src/core/conversation/session-policy.js';

// Issue 44 (review): a served session's policy (made by an HTTP client) holds where the server runs the
// session, never in the person's own faces: the REPL or `adk resume` opening it keep their own mode and rules.
describe('session policy', () => {
  it('is followed only by a face that says so', async () => {
    const stores = await openAdkStores('memory://');
    const team = { agent: new ChatModelAgent({ name: 'a', description: 'd', model: new ScriptedChatModel([]) }) };
    const lease = await lockSession(stores.kv, 'sess1');
    const conv = await Conversation.create(stores, team, lease, { served: true, policy: parseSessionPolicy({ permission_mode: 'accept-edits', allow: ['shell'] }) });
    const call = { tool: 'shell', arguments: { command: 'rm -rf build' }, readOnly: false, agentName: 'a' };
    const edit = { tool: 'write_file', arguments: { path: 'a.txt' }, readOnly: false, agentName: 'a' };
    // A person's face (no followsPolicy): neither the client's rule nor its mode runs anything unasked.
    expect(conv.approvalPolicy.allows(call)).toBe(false);
    expect(conv.approvalPolicy.allows(edit)).toBe(false);
    conv.followsPolicy = true;
    expect(conv.approvalPolicy.allows(call)).toBe(true);
    expect(conv.approvalPolicy.allows(edit)).toBe(true);
    await lease.release();
    await stores.close();
  });
});
