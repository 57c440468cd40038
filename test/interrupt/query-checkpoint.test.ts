import { describe, expect, it } from 'vitest';
import { collect, errorsOf, interruptOf, loadRuntime, messagesOf } from './helpers.js';

// Issue 43, item 8: a porter continues a thread the Deer-Go way, `query(…, { checkpointId })` with the
// same id. After a finished run that starts the next run; after a run that stopped for a person it
// would have overwritten the stopped run (and its questions) silently: now it is refused, naming resume.
describe('query with the checkpointId of an earlier run', () => {
  it('refuses while that run waits to be resumed; works once it has finished', async () => {
    const rt = await loadRuntime();
    const store = new rt.InMemoryCheckpointStore();
    const ran: string[] = [];
    const shell = { name: 'shell', description: 'runs', parameters: { type: 'object', properties: { command: { type: 'string' } } }, execute: (a: { command: string }) => (ran.push(a.command), 'ok') };
    const model = new rt.ScriptedChatModel([{ toolCalls: [{ id: 'c1', name: 'shell', arguments: { command: 'make' } }] }, { content: 'built' }, { content: 'second thread turn' }]);
    const agent = new rt.ChatModelAgent({ name: 'a', description: 'd', model, tools: [shell], approval: ['shell'] });
    const runner = new rt.Runner({ agent, checkpointStore: store });
    const first = await collect(runner.query('build it', { checkpointId: 'thread-1' }));
    const id = interruptOf(first).contexts[0]!.id;
    const again = await collect(runner.query('never mind', { checkpointId: 'thread-1' })).catch((e: Error) => e);
    const error = again instanceof Error ? again : errorsOf(again)[0];
    expect(error?.message).toContain("checkpoint thread-1 holds a run that stopped and was not resumed: continue it with runner.resume('thread-1', { targets })");
    expect((error as { code?: string }).code).toBe('checkpoint_pending');
    // The stopped run is still there: resumed, it finishes; then the same id starts the next run.
    const resumed = await collect(runner.resume('thread-1', { targets: { [id]: { approved: true } } }));
    expect((await messagesOf(resumed)).at(-1)?.content).toBe('built');
    expect(ran).toEqual(['make']);
    const next = await collect(runner.query('and now?', { checkpointId: 'thread-1' }));
    expect(errorsOf(next)).toEqual([]);
    expect((await messagesOf(next)).at(-1)?.content).toBe('second thread turn');
  });
});
