import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { ModelHttpError, WillRetryError } from '../../src/core/errors.js';
import { consumeRun } from '../../src/ui/state/consume-run.js';
import { viewReducer } from '../../src/ui/state/reducer.js';
import { initialViewState, type ViewState } from '../../src/ui/state/transcript.js';
import { eventsOf, manualStream, streamEvent, tick, toolEvent } from './helpers.js';

function view() {
  const box = { state: initialViewState() as ViewState };
  return { box, dispatch: (a: Parameters<typeof viewReducer>[1]) => (box.state = viewReducer(box.state, a)) };
}

const assistantTexts = (s: ViewState) => s.committed.flatMap((x) => (x.kind === 'assistant' ? [`${x.agent}: ${x.text}`] : []));

describe('consumeRun', () => {
  it('reads a stream chunk by chunk while it is still open', async () => {
    const { box, dispatch } = view();
    const s = manualStream();
    const done = consumeRun(eventsOf(streamEvent('lead', ['lead'], s.stream)), dispatch);
    s.push('Hel');
    await tick();
    expect(box.state.running).toBe(true);
    expect(box.state.live[0]).toMatchObject({ kind: 'message', text: 'Hel' });
    s.push('lo.\n\nMore');
    await tick();
    expect(assistantTexts(box.state)).toEqual(['lead: Hello.']);
    s.close();
    const outcome = await done;
    expect(outcome).toEqual({ interrupts: [], cancelled: false, exit: false });
    expect(assistantTexts(box.state)).toEqual(['lead: Hello.', 'lead: More']);
    expect(box.state.running).toBe(false);
  });

  it('streams parallel lanes side by side, each labelled by its agent', async () => {
    const { box, dispatch } = view();
    const a = manualStream();
    const b = manualStream();
    const done = consumeRun(eventsOf(streamEvent('a', ['par', 'a'], a.stream), streamEvent('b', ['par', 'b'], b.stream)), dispatch);
    b.push('from b');
    a.push('from a');
    await tick();
    expect(box.state.live.map((x) => x.kind === 'message' && `${x.agent}: ${x.text}`).sort()).toEqual(['a: from a', 'b: from b']);
    a.close();
    b.push(' too');
    b.close();
    await done;
    expect(assistantTexts(box.state).sort()).toEqual(['a: from a', 'b: from b too']);
  });

  it('handles a tool result only after the stream that called the tool has ended', async () => {
    const { box, dispatch } = view();
    const s = manualStream();
    const done = consumeRun(
      eventsOf(streamEvent('lead', ['lead'], s.stream), toolEvent('lead', ['lead'], { role: 'tool', content: 'ok', toolCallId: 'c1', toolName: 'shell' })),
      dispatch,
    );
    s.push({ toolCalls: [{ index: 0, id: 'c1', function: { name: 'shell', arguments: '{"command":"ls"}' } }] });
    await tick();
    expect(box.state.live[0]).toMatchObject({ kind: 'message', toolNames: ['shell'] });
    s.close();
    await done;
    expect(box.state.live).toEqual([]);
    expect(box.state.committed).toMatchObject([{ kind: 'tool', call: { callId: 'c1', name: 'shell', args: '{"command":"ls"}', status: 'done', result: 'ok' } }]);
  });

  it('drops the text of an attempt closed with WillRetryError and shows the retry', async () => {
    const { box, dispatch } = view();
    const first = manualStream();
    const second = manualStream();
    const done = consumeRun(
      eventsOf(
        streamEvent('lead', ['lead'], first.stream),
        { agentName: 'lead', runPath: ['lead'], retry: { attempt: 1, delayMs: 10, error: 'HTTP 503' } },
        streamEvent('lead', ['lead'], second.stream),
      ),
      dispatch,
    );
    first.push('The ans');
    await tick();
    expect(box.state.live[0]).toMatchObject({ text: 'The ans' });
    first.close(new WillRetryError(1, new ModelHttpError(503, 'busy')));
    second.push('The answer.');
    second.close();
    await done;
    expect(assistantTexts(box.state)).toEqual(['lead: The answer.']);
    // The retry showed on the activity line while it lasted; the call recovered, so no line stays (issue 15).
    expect(box.state.committed.map((x) => x.kind)).toEqual(['assistant']);
    expect(box.state.retry).toBeUndefined();
  });

  it('reports interrupts, transfers, errors and the run path', async () => {
    const { box, dispatch } = view();
    const contexts = [{ id: 'i1', address: 'agent:lead;tool:ask_user:c1', info: { kind: 'input', message: 'Which city?' } }];
    const events: AgentEvent[] = [
      { agentName: 'lead', runPath: ['team', 'lead'], action: { transferToAgent: { destAgentName: 'researcher' } } },
      { agentName: 'researcher', runPath: ['team', 'lead', 'researcher'], error: new Error('boom') },
      { agentName: 'researcher', runPath: ['team', 'lead', 'researcher'], action: { interrupted: { contexts, signal: {} as never } } },
    ];
    const outcome = await consumeRun(eventsOf(...events), dispatch);
    expect(outcome.interrupts).toEqual(contexts);
    expect(outcome.error?.message).toBe('boom');
    expect(box.state.path).toEqual(['team', 'lead', 'researcher']);
    expect(box.state.committed.map((x) => x.kind)).toEqual(['transfer', 'error']);
    expect(box.state.interrupts).toMatchObject([{ id: 'i1', agent: 'lead', info: { kind: 'input', message: 'Which city?' } }]);
  });

  it('treats a cancellation checkpoint as a cancelled run, not as questions to ask', async () => {
    const { box, dispatch } = view();
    const contexts = [{ id: 'x', address: 'agent:lead', info: { kind: 'custom', message: 'cancelled' }, cancelled: true as const }];
    const outcome = await consumeRun(
      eventsOf(
        { agentName: 'lead', runPath: ['lead'], action: { interrupted: { contexts, signal: {} as never, cancelled: true } } },
        { agentName: 'lead', runPath: ['lead'], error: Object.assign(new Error('run cancelled'), { name: 'AbortError' }) },
      ),
      dispatch,
    );
    expect(outcome.cancelled).toBe(true);
    expect(outcome.interrupts).toEqual([]);
    expect(box.state.interrupts).toEqual([]);
    expect(box.state.committed.map((x) => (x.kind === 'info' ? x.text : x.kind))).toEqual(['Cancelled.']);
  });

  it('ends as cancelled when aborted, even if the run never finishes', async () => {
    const { box, dispatch } = view();
    const ac = new AbortController();
    const s = manualStream();
    const hung = eventsOf(streamEvent('lead', ['lead'], s.stream), () => new Promise<void>(() => {}));
    const done = consumeRun(hung, dispatch, { signal: ac.signal });
    s.push('partial');
    await tick();
    ac.abort();
    const outcome = await done;
    expect(outcome.cancelled).toBe(true);
    expect(box.state.running).toBe(false);
    expect(box.state.live).toEqual([]);
    expect(box.state.committed.map((x) => (x.kind === 'info' ? x.text : x.kind))).toEqual(['assistant', 'Cancelled.']);
  });
});
