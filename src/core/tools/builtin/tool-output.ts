/**
 * What a running tool has printed so far (its last lines), for a UI to show while it works: the
 * `shell` tool sends one at most every 150 ms. The model sees only the final result.
 */
export interface ToolOutputEvent {
  type: 'tool_output';
  callId: string;
  /** The last lines of output so far. */
  tail: string;
  /** The command runs now and can be moved to the background (Ctrl-B); sent once, with an empty tail. */
  background?: true;
}

/** Whether a custom event is a `tool_output` notice. */
export function isToolOutputEvent(v: unknown): v is ToolOutputEvent {
  return !!v && typeof v === 'object' && (v as { type?: unknown }).type === 'tool_output' && typeof (v as { tail?: unknown }).tail === 'string';
}

const TAIL_LINES = 3;
const EVERY_MS = 150;

/** Collects output and calls `send` with its last lines, at most every 150 ms (and once at the end). */
export function outputTail(send: (tail: string) => void): { append(text: string): void; flush(): void } {
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  const emit = () => {
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    const lines = text.replace(/\n$/, '').split('\n');
    send(lines.slice(-TAIL_LINES).join('\n'));
  };
  return {
    append(chunk) {
      text = (text + chunk).slice(-4096);
      dirty = true;
      timer ??= setTimeout(emit, EVERY_MS);
    },
    flush() {
      if (timer) clearTimeout(timer);
      emit();
    },
  };
}
