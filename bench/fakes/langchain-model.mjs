// A zero-latency LangChain chat model: streams AIMessageChunks and reports each token to the
// callbacks (as ChatOpenAI does), so LangGraph's `messages` stream mode sees every chunk.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { sleep } from './script.mjs';

export class FakeChatModel extends BaseChatModel {
  /** @param {import('./script.mjs').Script} script */
  constructor(script) {
    super({});
    this.script = script;
  }

  _llmType() {
    return 'bench-fake';
  }

  // The fake answers by script, so the bound tools change nothing.
  bindTools() {
    return this;
  }

  async _generate(messages, options, runManager) {
    let text = '';
    let last;
    for await (const c of this._streamResponseChunks(messages, options, runManager)) {
      text += c.text;
      last = c.message;
    }
    const message = new AIMessage({ content: text, tool_calls: last?.tool_calls ?? [] });
    return { generations: [{ text, message }] };
  }

  async *_streamResponseChunks(_messages, _options, runManager) {
    const reply = this.script.take();
    if (reply.delayMs) await sleep(reply.delayMs);
    for (const text of reply.chunks ?? []) {
      const chunk = new ChatGenerationChunk({ text, message: new AIMessageChunk({ content: text }) });
      yield chunk;
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
    const c = reply.toolCall;
    if (c) {
      const message = new AIMessageChunk({
        content: '',
        tool_call_chunks: [{ type: 'tool_call_chunk', index: 0, id: c.id ?? `call_${this.script.call}`, name: c.name, args: JSON.stringify(c.args ?? {}) }],
      });
      const chunk = new ChatGenerationChunk({ text: '', message });
      yield chunk;
      await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
    }
  }
}
