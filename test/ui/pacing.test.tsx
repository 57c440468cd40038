import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useChatController, type ChatControllerOptions } from '../../src/ui/app/use-chat-controller.js';
import { useClock } from '../../src/ui/hooks/use-clock.js';
import { STREAM_COMMIT_MS } from '../../src/ui/state/stream-reducer.js';
import { eventsOf, manualStream, plain, streamEvent, tick } from './helpers.js';

afterEach(() => cleanup());

describe('useChatController: paragraphs of a paused stream', () => {
  it('moves finished paragraphs into the transcript even when no more text comes', async () => {
    const s = manualStream();
    let submit: (t: string) => Promise<void> = async () => {};
    function Probe(props: ChatControllerOptions) {
      const c = useChatController(props);
      submit = c.submit;
      const pieces = c.state.committed.filter((x) => x.kind === 'assistant').map((x) => (x.kind === 'assistant' ? x.text : ''));
      const live = c.state.live.map((x) => (x.kind === 'message' ? x.text : ''));
      return <Text>{`committed=${JSON.stringify(pieces)} live=${JSON.stringify(live)}`}</Text>;
    }
    const r = render(<Probe runTurn={() => eventsOf(streamEvent('lead', ['lead'], s.stream))} answerInterrupts={() => eventsOf()} onExit={() => {}} />);
    void submit('go');
    await tick(20);
    s.push('One.\n\n');
    await tick(80);
    expect(plain(r.lastFrame())).toBe('committed=["One."] live=[""]');
    // Finished right after a move: it waits in the live tail, still on screen…
    s.push('Two.\n\nThr');
    await tick(80);
    expect(plain(r.lastFrame())).toBe('committed=["One."] live=["Two.\\n\\nThr"]');
    // …and moves on its own once the stream has been quiet for a while.
    await tick(STREAM_COMMIT_MS + 150);
    expect(plain(r.lastFrame())).toBe('committed=["One.","Two."] live=["Thr"]');
    s.close();
    await tick(80);
    expect(plain(r.lastFrame())).toBe('committed=["One.","Two.","Thr"] live=[]');
  });
});

describe('useClock', () => {
  it('re-renders an idle component on its own, but adds nothing while something else re-renders it', async () => {
    let own = 0;
    let renders = 0;
    function Clocked({ n }: { n: number }) {
      useClock(400);
      renders++;
      return <Text>{n}</Text>;
    }
    function Parent({ busyMs }: { busyMs: number }) {
      const [n, setN] = useState(0);
      useEffect(() => {
        const t = setInterval(() => setN((x) => x + 1), 10);
        const stop = setTimeout(() => clearInterval(t), busyMs);
        return () => {
          clearInterval(t);
          clearTimeout(stop);
        };
      }, [busyMs]);
      own = n;
      return <Clocked n={n} />;
    }
    const r = render(<Parent busyMs={800} />);
    await tick(700);
    // Busy: every render of the clocked component came from its parent.
    expect(renders).toBe(own + 1);
    await tick(1500);
    const idle = renders - (own + 1);
    expect(idle).toBeGreaterThanOrEqual(2);
    expect(idle).toBeLessThanOrEqual(5);
    r.unmount();
  });
});
