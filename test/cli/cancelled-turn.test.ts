import { describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/cli.js';
import { useOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';

let server: OpenAITestServer;
useOpenAIServer((s) => (server = s));

describe('a new prompt after a cancelled turn', () => {
  it('keeps what the cancelled turn did and answers its unfinished calls as cancelled', async () => {
    const home = tempHome();
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key-123456', ADK_HOME: home };
    server.enqueue(
      { toolCalls: [{ id: 'c_list', name: 'list_dir', arguments: { path: '.' } }] },
      { content: 'a long, slow answer that will be cut off before it ends', chunkSize: 3, chunkDelayMs: 120 },
    );
    let sent = false;
    const first = await runCli(['run', '--json', 'look around'], {
      env,
      onLine: (line, child) => {
        if (!sent && line.includes('"delta"')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(first.code).toBe(130);
    const id = first.lines[0].sessionId;

    server.enqueue({ content: 'still here' });
    const next = await runCli(['resume', id, '--json', 'are you there?'], { env });
    expect(next.code).toBe(0);
    const messages = server.chatRequests.at(-1)!.body.messages as Array<{ role: string; content: string; tool_call_id?: string; tool_calls?: unknown[] }>;
    const roles = messages.map((m) => m.role);
    // user, the call, its result, the part of the answer shown, the new question: no user message follows another.
    expect(roles.slice(-5)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    // What was shown of the cut-off answer stays in the context (issue 15, defect 6).
    expect('a long, slow answer that will be cut off before it ends'.startsWith(messages.at(-2)!.content)).toBe(true);
    expect(messages.at(-2)!.content.length).toBeGreaterThan(0);
    expect(messages.find((m) => m.role === 'tool')?.tool_call_id).toBe('c_list');
    expect(messages.at(-1)?.content).toBe('are you there?');

    const shown = JSON.parse((await runCli(['sessions', 'show', id, '--json'], { env })).stdout);
    expect(shown.status).toBe('completed');
    expect(shown.checkpointId).toBeUndefined();
  });
});

describe('closeDanglingCalls', () => {
  it('answers calls without a result right after the message that made them', async () => {
    const { closeDanglingCalls, CANCELLED_CALL_RESULT } = await import('../../src/core/conversation/conversation.js');
    const out = closeDanglingCalls([
      { role: 'assistant', content: '', agentName: 'a', toolCalls: [{ id: 'c1', function: { name: 'x', arguments: '{}' } }, { id: 'c2', function: { name: 'shell', arguments: '{}' } }] },
      { role: 'tool', content: 'ok', toolCallId: 'c1', toolName: 'x', agentName: 'a' },
    ]);
    expect(out.map((m) => [m.role, m.toolCallId, m.content])).toEqual([
      ['assistant', undefined, ''],
      ['tool', 'c2', CANCELLED_CALL_RESULT],
      ['tool', 'c1', 'ok'],
    ]);
  });
});
