import type { AgentEvent } from '../../src/core/agents/types.js';
import type { MessageChunk, Message } from '../../src/core/schema/message.js';
import { MessageStream } from '../../src/core/schema/message-stream.js';
import { stripAnsi } from '../../src/ui/text/width.js';

export const tick = (ms = 20) => new Promise<void>((r) => setTimeout(r, ms));

/** The frame as plain text. */
export const plain = (frame: string | undefined) => stripAnsi(frame ?? '');

export const KEY = {
  enter: '\r',
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  tab: '\t',
  esc: '\u001B',
  backspace: '\u007F',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlJ: '\n',
  pasteStart: '\u001B[200~',
  pasteEnd: '\u001B[201~',
};

/** Writes keys one by one, waiting after each so Ink re-renders. */
export async function type(stdin: { write: (s: string) => void }, ...keys: string[]) {
  for (const k of keys) {
    stdin.write(k);
    await tick(30);
  }
}

export async function* eventsOf(...events: Array<AgentEvent | (() => Promise<void>)>): AsyncGenerator<AgentEvent> {
  for (const e of events) {
    if (typeof e === 'function') await e();
    else yield e;
  }
}

export function assistantEvent(agent: string, runPath: string[], message: Message): AgentEvent {
  return { agentName: agent, runPath, output: { message: { isStreaming: false, message, role: 'assistant' } } };
}

export function toolEvent(agent: string, runPath: string[], message: Message): AgentEvent {
  return {
    agentName: agent,
    runPath,
    output: { message: { isStreaming: false, message, role: 'tool', toolName: message.toolName, toolCallId: message.toolCallId } },
  };
}

export function streamEvent(agent: string, runPath: string[], stream: MessageStream): AgentEvent {
  return { agentName: agent, runPath, output: { message: { isStreaming: true, stream, role: 'assistant' } } };
}

/** A stream fed by hand: push chunks, then close (optionally with an error). */
export function manualStream() {
  const stream = new MessageStream();
  return {
    stream,
    push: (c: MessageChunk | string) => stream.push(typeof c === 'string' ? { content: c } : c),
    close: (e?: Error) => stream.close(e),
  };
}
