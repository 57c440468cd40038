import { describe, expect, it } from 'vitest';
import { apply, emptyView, fromHistory, reset, sent } from '../../src/web/transcript.js';

// Issue 34: the page's transcript model: the person's messages at once, reasoning, tool durations, todos, the transfer path.
const history = (id: string, users: string[]) => fromHistory({ id, status: 'completed', todos: [], messages: users.flatMap((u) => [{ role: 'user', content: u }, { role: 'assistant', content: `re ${u}`, agentName: 'a' }]) });

describe('the web transcript', () => {
  it('a sent message shows at once and survives a history read before the server saved it, without doubling after', () => {
    let v = sent(history('s1', ['one']), 's1', 'two');
    expect(v.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual(['one', 'two']);
    // Read before the save: kept at the end.
    v = reset(v, history('s1', ['one']));
    expect(v.items.at(-1)).toMatchObject({ kind: 'user', text: 'two', local: true });
    // Read after the save: once.
    v = reset(v, history('s1', ['one', 'two']));
    expect(v.items.filter((i) => i.kind === 'user')).toHaveLength(2);
    // Another session's history does not take them.
    expect(reset(sent(history('s1', []), 's1', 'x'), history('s2', [])).items).toEqual([]);
    // Typed on a blank page, it moves into the session made for it.
    expect(reset(sent(emptyView, undefined, 'first'), history('s3', [])).items).toMatchObject([{ kind: 'user', text: 'first' }]);
  });

  it('reasoning streams beside the answer; a tool row has its duration; todos and the transfer path follow the events', () => {
    const at = (e: Record<string, unknown>, t = 0) => (s: typeof emptyView) => apply(s, { runPath: ['lead'], agent: 'lead', ...e } as never, t);
    const steps = [
      at({ type: 'session' }),
      at({ type: 'thought', content: 'Let me ' }),
      at({ type: 'thought', content: 'think.' }),
      at({ type: 'delta', content: 'Hi' }),
      at({ type: 'tool_call', id: 'c1', name: 'grep', arguments: { pattern: 'x' } }, 1000),
      at({ type: 'tool_result', id: 'c1', name: 'grep', content: 'found', isError: false }, 1420),
      at({ type: 'todos', todos: [{ content: 'a', status: 'in_progress' }] }),
      at({ type: 'transfer', to: 'writer' }),
    ];
    const v = steps.reduce((s, step) => step(s), emptyView);
    expect(v.items[0]).toMatchObject({ kind: 'assistant', reasoning: 'Let me think.', text: 'Hi', done: false });
    expect(v.items[1]).toMatchObject({ kind: 'tool', status: 'done', startedAt: 1000, endedAt: 1420 });
    expect(v.todos).toEqual([{ content: 'a', status: 'in_progress' }]);
    expect(v.path).toEqual(['lead', 'writer']);
    const done = apply(v, { type: 'done', status: 'completed' });
    expect([done.running, done.path, done.items[0]!.kind === 'assistant' && done.items[0]!.done]).toEqual([false, [], true]);
  });
});
