const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const TOOL_OPEN = '<tool_call>';

export interface SplitText {
  text: string;
  reasoning: string;
}

type State = 'start' | 'think' | 'lead' | 'text' | 'tool';

/**
 * Splits streamed content that reasoning models without a server-side parser (Qwen3, DeepSeek-R1 on
 * vLLM or llama.cpp) send as `<think>…</think>answer`: the leading think block becomes reasoning. With
 * `toolCallTags`, text from a `<tool_call>` tag on is held back, so the caller can parse it as calls
 * once the stream ends instead of showing it as the answer. Tags split across chunks are handled.
 */
export class TaggedTextSplitter {
  private state: State = 'start';
  private pending = '';

  constructor(private readonly options: { toolCallTags: boolean }) {}

  push(chunk: string): SplitText {
    // Hot path: plain answer text with nothing held.
    if (this.state === 'text' && !this.pending && (!this.options.toolCallTags || !chunk.includes('<'))) return { text: chunk, reasoning: '' };
    const out: SplitText = { text: '', reasoning: '' };
    this.pending += chunk;
    this.run(out);
    return out;
  }

  /** The rest once the stream ends; `heldToolText` is everything from the first `<tool_call>` on. */
  end(): SplitText & { heldToolText?: string } {
    const rest = this.pending;
    this.pending = '';
    switch (this.state) {
      case 'think':
        return { text: '', reasoning: rest };
      case 'tool':
        return { text: '', reasoning: '', heldToolText: rest };
      case 'lead':
        return { text: '', reasoning: '' };
      default:
        return { text: rest, reasoning: '' };
    }
  }

  private run(out: SplitText): void {
    for (;;) {
      switch (this.state) {
        case 'start': {
          const s = this.pending.trimStart();
          if (!s || (s.length < THINK_OPEN.length && THINK_OPEN.startsWith(s))) return;
          if (s.startsWith(THINK_OPEN)) {
            this.pending = s.slice(THINK_OPEN.length);
            this.state = 'think';
          } else this.state = 'text';
          continue;
        }
        case 'think': {
          const end = this.pending.indexOf(THINK_CLOSE);
          if (end < 0) {
            const keep = partialSuffix(this.pending, THINK_CLOSE);
            out.reasoning += this.pending.slice(0, this.pending.length - keep);
            this.pending = this.pending.slice(this.pending.length - keep);
            return;
          }
          out.reasoning += this.pending.slice(0, end);
          this.pending = this.pending.slice(end + THINK_CLOSE.length);
          this.state = 'lead';
          continue;
        }
        case 'lead': {
          this.pending = this.pending.trimStart();
          if (!this.pending) return;
          this.state = 'text';
          continue;
        }
        case 'text': {
          if (!this.options.toolCallTags) {
            out.text += this.pending;
            this.pending = '';
            return;
          }
          const at = this.pending.indexOf(TOOL_OPEN);
          if (at >= 0) {
            out.text += this.pending.slice(0, at);
            this.pending = this.pending.slice(at);
            this.state = 'tool';
            return;
          }
          const keep = partialSuffix(this.pending, TOOL_OPEN);
          out.text += this.pending.slice(0, this.pending.length - keep);
          this.pending = this.pending.slice(this.pending.length - keep);
          return;
        }
        case 'tool':
          return;
      }
    }
  }
}

/** Length of the longest end of `text` that is a proper beginning of `tag` (a tag split across chunks). */
function partialSuffix(text: string, tag: string): number {
  const from = Math.max(0, text.length - tag.length + 1);
  for (let i = text.lastIndexOf('<'); i >= from; i = text.lastIndexOf('<', i - 1)) {
    if (tag.startsWith(text.slice(i))) return text.length - i;
    if (i === 0) break;
  }
  return 0;
}
