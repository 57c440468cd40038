import type { InterruptContext } from '../../core/interrupt.js';
import type { Message } from '../../core/schema/message.js';
import type { NewTranscriptItem } from './transcript.js';
import type { Todo } from '../../core/prebuilt/deep/todos.js';

/** How a stream ended, as far as the view cares. */
export type StreamOutcome = 'done' | 'retry' | 'cancelled' | 'error';

/** Everything that changes the view. Core events become these in `consumeRun`. */
export type ViewAction =
  | { type: 'user'; text: string }
  | { type: 'runStart' }
  | { type: 'runEnd'; cancelled?: boolean }
  | { type: 'path'; runPath: string[] }
  /** A message the person sent while the run worked, taken by the run: shown, the run goes on. */
  | { type: 'pushed'; text: string }
  | { type: 'streamStart'; streamId: string; lane: string; agent: string; runPath: string[] }
  /**
   * `at` (ms, when the chunk was read) paces how often finished paragraphs move into the
   * transcript; without it they move at once.
   */
  | { type: 'streamDelta'; streamId: string; content?: string; reasoning?: string; toolNames?: string[]; at?: number }
  /** Moves the finished paragraphs of every live message into the transcript now (a stalled stream). */
  | { type: 'commitLive'; at?: number }
  | { type: 'streamEnd'; streamId: string; outcome: StreamOutcome; message?: Message }
  /** A whole message: an assistant reply (not streamed) or a tool result. */
  | { type: 'message'; agent: string; runPath: string[]; message: Message }
  | { type: 'transfer'; from: string; to: string }
  | { type: 'retry'; agent: string; attempt: number; delayMs: number; error: string }
  | { type: 'error'; agent?: string; text: string }
  | { type: 'cancelled' }
  | { type: 'interrupted'; agent: string; contexts: InterruptContext[] }
  /** Every interrupt got an answer: waiting rows run again until the resumed run reports them. */
  | { type: 'interruptsAnswered' }
  /** The person left the interrupts unanswered: waiting rows go to the transcript as they are. */
  | { type: 'interruptsDismissed' }
  | { type: 'info'; text: string; tone?: 'info' | 'warning' | 'success' | 'muted' }
  /** A deep agent's todo list (write_todos): replaces the one shown above the input. */
  | { type: 'todos'; todos: Todo[] }
  /** The last lines a running call has printed (shell): shown under its row until the result comes. */
  | { type: 'toolOutput'; agent: string; callId: string; tail: string; background?: boolean }
  /** Appends a finished item as is (slash command output, a restored transcript). */
  | { type: 'append'; item: NewTranscriptItem }
  /** Re-shows the last collapsed tool result in full (Static rows cannot change, so it is a copy). */
  | { type: 'expandLast' }
  /** One model request's usage; `nested` ones (sub-agents, summaries) came as no message, so they add to the totals here. */
  | { type: 'usage'; model: string; promptTokens: number; completionTokens: number; nested?: boolean }
  /** Starts over on screen; another session brings its own token counts. */
  | { type: 'clear'; usage?: { promptTokens: number; completionTokens: number } }
  | { type: 'batch'; actions: ViewAction[] };
