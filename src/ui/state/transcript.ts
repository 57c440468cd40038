import type { Todo } from '../../core/prebuilt/deep/todos.js';
import type { InterruptDetails } from '../../core/interrupt.js';

export type ToolStatus = 'pending' | 'running' | 'done' | 'error' | 'rejected';

export interface ToolCallView {
  /** The tool call id (`call_1`). */
  callId: string;
  name: string;
  /** The arguments as the model sent them (a JSON string, usually), or as a person edited them. */
  args: string;
  /** A person edited the arguments before approving: `args` are what ran. */
  edited?: boolean;
  /** While it runs: the last lines it has printed so far. */
  progress?: string;
  /** Its command runs and Ctrl-B can move it to the background (the shell tool said so). */
  movable?: boolean;
  status: ToolStatus;
  result?: string;
}

interface Base {
  /** Stable and unique within a view state: the React key. */
  id: string;
}

/** Finished rows of the transcript. They go into Ink's <Static> and never change. */
export type TranscriptItem =
  | (Base & { kind: 'user'; text: string })
  /** A committed piece of an assistant message: whole paragraphs of markdown. */
  | (Base & { kind: 'assistant'; agent: string; text: string; messageId: string; showHeader: boolean })
  /** `ms`: how long the model thought (from its first reasoning to the answer), for "✻ Thought for 4 s". */
  | (Base & { kind: 'thought'; agent: string; text: string; expanded?: boolean; ms?: number })
  | (Base & { kind: 'tool'; agent: string; call: ToolCallView; expanded?: boolean })
  | (Base & { kind: 'transfer'; from: string; to: string })
  | (Base & { kind: 'retry'; agent: string; attempt: number; delayMs: number; error: string })
  | (Base & { kind: 'error'; agent?: string; text: string })
  | (Base & { kind: 'info'; text: string; tone?: 'info' | 'warning' | 'success' | 'muted' });

export type TranscriptKind = TranscriptItem['kind'];

/** A message still streaming in one lane: its uncommitted tail and its reasoning so far. */
export interface LiveMessage extends Base {
  kind: 'message';
  streamId: string;
  lane: string;
  agent: string;
  runPath: string[];
  /** The part of the content not yet committed. */
  text: string;
  thought: string;
  /** When its first reasoning arrived (ms since the epoch). */
  thoughtStartedAt?: number;
  thoughtCommitted: boolean;
  /** How many committed pieces this message already has. */
  committedChunks: number;
  /** `text` may hold finished paragraphs that wait for the next commit. */
  pendingCut?: boolean;
  /** Names of tool calls the model is writing, shown as a hint until the message completes. */
  toolNames: string[];
}

export interface LiveTool extends Base {
  kind: 'tool';
  agent: string;
  call: ToolCallView;
}

export type LiveItem = LiveMessage | LiveTool;

/** A run stopped here and waits for a person. Answers are addressed by `id`. */
export interface PendingInterrupt {
  id: string;
  address: string;
  agent: string;
  info: InterruptDetails;
  /** Set when the interrupt point is a tool call. */
  toolCallId?: string;
}

export interface ViewState {
  /** Bumped by `clear`: the transcript remounts <Static> (without clearing the screen). */
  epoch: number;
  committed: TranscriptItem[];
  live: LiveItem[];
  /** The run path of the latest event: the breadcrumb. */
  path: string[];
  interrupts: PendingInterrupt[];
  usage: { promptTokens: number; completionTokens: number };
  /** The same tokens per model, from the run's usage events (every request: sub-agents and summaries too); for `/cost`. */
  usageByModel?: Record<string, { promptTokens: number; completionTokens: number }>;
  /** Tokens in the model's context after the latest reply (its prompt plus the reply), as the provider reported. */
  contextTokens?: number;
  running: boolean;
  /** The latest todo list a deep agent wrote (shown above the input while it works). */
  todos?: Todo[];
  /** A model call being tried again: shown on the activity line until the call answers (then gone). */
  retry?: { agent: string; attempt: number; delayMs: number; error: string } | undefined;
  nextId: number;
  /** Calls whose rows are not shown (transfer_to_agent: its transfer line says it all). */
  hiddenCalls: string[];
  /** When streamed paragraphs last moved into the transcript (the `at` of that delta). */
  streamCommitAt: number;
}

export const initialViewState = (committed: TranscriptItem[] = []): ViewState => ({
  epoch: 0,
  committed,
  live: [],
  path: [],
  interrupts: [],
  usage: { promptTokens: 0, completionTokens: 0 },
  running: false,
  nextId: 1,
  hiddenCalls: [],
  streamCommitAt: 0,
});

/** A transcript item before it gets its id. */
export type NewTranscriptItem = TranscriptItem extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;
