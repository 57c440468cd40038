import { describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import { CancelledError, isAbortError } from '../../src/core/errors.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { Runner } from '../../src/core/runner.js';
import type { AgentEvent } from '../../src/core/agents/types.js';

/**
 * The README's streaming loop, as a user writes it (text printed as it streams), stopped with an
 * AbortController half-way through the answer: as with openai-agents-js's streamed runs, the loop
 * ends without throwing and the result says `cancelled`.
 */
describe("the README's streaming loop with an abort", () => {
  it('ends cleanly: no throw, no unhandled rejection, the last event is the cancel and the status is cancelled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const model = new ScriptedChatModel([{ content: 'Sunny in Paris all week long.', chunks: ['Sunny ', 'in ', 'Paris ', 'all ', 'week ', 'long.'], chunkDelayMs: 20 }]);
      const agent = new ChatModelAgent({ name: 'helper', description: 'Helps.', instruction: 'Be brief.', model });

      const controller = new AbortController();
      const run = new Runner({ agent, enableStreaming: true, tracing: false }).query('Weather in Paris?', { signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      let printed = '';
      const events: AgentEvent[] = [];
      let thrown: unknown;
      try {
        for await (const event of run) {
          events.push(event);
          const v = event.output?.message;
          if (v?.stream) for await (const chunk of v.stream) printed += chunk.content ?? '';
          else if (v?.message) printed += v.message.content;
        }
      } catch (e) {
        thrown = e;
      }
      const result = await run.result;
      await new Promise((r) => setTimeout(r, 20));

      expect(thrown).toBeUndefined();
      expect(result.status).toBe('cancelled');
      expect(printed.length).toBeGreaterThan(0);
      expect('Sunny in Paris all week long.'.startsWith(printed)).toBe(true);
      expect(printed).not.toBe('Sunny in Paris all week long.');
      // The run says how it ended: the cancel's safe point, then CancelledError.
      const [stop, last] = events.slice(-2);
      expect(stop!.action?.interrupted?.cancelled).toBe(true);
      expect(last!.error).toBeInstanceOf(CancelledError);
      expect(isAbortError(last!.error)).toBe(true);
      // The cut stream still says why it ended, for whoever wants to know.
      const stream = events.find((e) => e.output?.message?.stream)!.output!.message!.stream!;
      expect(stream.error).toBeInstanceOf(CancelledError);
      await expect(stream.collect()).rejects.toBeInstanceOf(CancelledError);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
