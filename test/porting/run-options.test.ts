import { describe, expect, it } from 'vitest';
import { ChatModelAgent, ConfigError, InMemoryCheckpointStore, Runner, ScriptedChatModel } from '../../src/core/index.js';

// Issue 43, item 8: run options were not checked, so a Go developer's `checkPointID` saved nothing,
// silently, and `resume(id, { sessionValues })` (Go's argument order) re-interrupted and dropped the
// values. Now they are checked as constructor options are.
const runner = () =>
  new Runner({ agent: new ChatModelAgent({ name: 'a', description: '', model: new ScriptedChatModel([{ content: 'hi' }]) }), checkpointStore: new InMemoryCheckpointStore() });

describe('run, query and resume options are checked', () => {
  it("query(q, { checkPointID }): an error with adk's spelling", () => {
    expect(() => runner().query('hi', { checkPointID: 'cp' } as never)).toThrow(ConfigError);
    expect(() => runner().query('hi', { checkPointID: 'cp' } as never)).toThrow("runner.query options: unknown option 'checkPointID'; did you mean 'checkpointId'?");
    expect(() => runner().run([], { sesionValues: {} } as never)).toThrow("did you mean 'sessionValues'?");
  });

  it('resume(id, { sessionValues }) in Go\'s order says where the option goes', () => {
    expect(() => runner().resume('cp', { sessionValues: { user: 'x' } } as never)).toThrow(
      "runner.resume(checkpointId, params, options): 'sessionValues' is a run option; pass it third: runner.resume(id, { targets }, { sessionValues })",
    );
    expect(() => runner().resume('cp', { Targets: {} } as never)).toThrow("did you mean 'targets'?");
  });

  it('the right options still run', async () => {
    const r = await runner().query('hi', { checkpointId: 'cp', sessionValues: { a: 1 }, modelOptions: { temperature: 0 } }).result;
    expect(r.status).toBe('completed');
  });

  it("a store whose get answers Go's [value, ok] is told the shape it must have", async () => {
    const store = { get: async () => ['{}', true], set: async () => {} };
    const r = new Runner({ agent: new ChatModelAgent({ name: 'a', description: '', model: new ScriptedChatModel([]) }), checkpointStore: store as never });
    const { errors } = await r.resume('cp').result.then((x) => ({ errors: [x.error] }), (e) => ({ errors: [e] }));
    expect(String(errors[0]?.message ?? errors[0])).toContain("checkpointStore.get('cp') returned an array (Go's [value, ok]?); it must resolve to the checkpoint's text, or undefined");
  });
});
