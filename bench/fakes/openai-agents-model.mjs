// A zero-latency @openai/agents Model: the same events its Chat Completions adapter yields for a
// streamed reply (response_started, one output_text_delta per chunk, response_done with the items).
import { sleep } from './script.mjs';

const USAGE = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

export class FakeAgentsModel {
  /** @param {import('./script.mjs').Script} script */
  constructor(script) {
    this.script = script;
  }

  async getResponse(request) {
    let done;
    for await (const e of this.getStreamedResponse(request)) if (e.type === 'response_done') done = e.response;
    return { usage: done.usage, output: done.output, responseId: done.id };
  }

  async *getStreamedResponse() {
    const reply = this.script.take();
    if (reply.delayMs) await sleep(reply.delayMs);
    yield { type: 'response_started' };
    let text = '';
    for (const delta of reply.chunks ?? []) {
      text += delta;
      yield { type: 'output_text_delta', delta };
    }
    const output = [];
    if (text) output.push({ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
    const c = reply.toolCall;
    if (c) {
      output.push({
        id: 'fc_1',
        type: 'function_call',
        callId: c.id ?? `call_${this.script.call}`,
        name: c.name,
        arguments: JSON.stringify(c.args ?? {}),
        status: 'completed',
      });
    }
    yield { type: 'response_done', response: { id: 'resp_1', usage: USAGE, output } };
  }
}
