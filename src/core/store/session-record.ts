import { z } from 'zod';
import type { InterruptKind } from '../interrupt.js';
import type { Message } from '../schema/message.js';

export const SESSION_VERSION = 1;

export type SessionStatus = 'active' | 'completed' | 'incomplete' | 'interrupted' | 'error' | 'cancelled';

/** An interrupt the session waits on, as shown to a person and answered by id on resume. */
export interface PendingInterrupt {
  id: string;
  address: string;
  kind: InterruptKind;
  tool?: string;
  /** The call being approved (adk's id, unique in the run). */
  callId?: string;
  arguments?: unknown;
  /** The approved call started before adk stopped: it may have run already. */
  mayHaveRun?: boolean;
  message: string;
}

/** A saved conversation (stored as JSON under `session:<id>`). */
export interface SessionRecord {
  version: 1;
  id: string;
  /** The first user line, at most 60 characters. */
  title: string;
  /** The agents file the team came from (unset: the bundled one). */
  agentsFile?: string;
  /** SHA-256 of that file when the session started: resuming with a changed file is refused. */
  agentsHash?: string;
  /** Realpath of the folder the tools work in; resume runs there, whatever the current folder. */
  workspace?: string;
  /** Tools the person allowed without asking for the rest of this session ("always allow"). */
  grants?: string[];
  rootAgent: string;
  model?: string;
  messages: Message[];
  /** Where in `messages` the model's context begins: `/clear` moves it to the end. Earlier messages stay on disk. */
  contextStart?: number;
  /** UI items, for redrawing the conversation as it was shown. */
  transcript?: unknown[];
  status: SessionStatus;
  checkpointId?: string;
  /** Messages of a turn that stopped (interrupted or cancelled) and may be resumed; kept out of `messages` until it ends. */
  pendingTurn?: Message[];
  pendingInterrupts: PendingInterrupt[];
  usage: { promptTokens: number; completionTokens: number };
  createdAt: string;
  updatedAt: string;
}

const count = z.number().int().nonnegative();

const toolCallSchema = z.looseObject({
  id: z.string(),
  index: z.number().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

export const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(toolCallSchema).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  reasoningContent: z.string().optional(),
  usage: z.looseObject({ promptTokens: count, completionTokens: count, totalTokens: count }).optional(),
  finishReason: z.string().optional(),
});

export const pendingInterruptSchema = z.looseObject({
  id: z.string().min(1),
  address: z.string(),
  kind: z.enum(['approval', 'input', 'plan_review', 'custom']),
  tool: z.string().optional(),
  callId: z.string().optional(),
  arguments: z.unknown().optional(),
  mayHaveRun: z.boolean().optional(),
  message: z.string(),
});

// Loose objects: fields added by a later adk that keeps version 1 survive a save by this one.
export const sessionRecordSchema = z.looseObject({
  version: z.literal(SESSION_VERSION),
  id: z.string().min(1),
  title: z.string(),
  agentsFile: z.string().optional(),
  agentsHash: z.string().optional(),
  workspace: z.string().optional(),
  grants: z.array(z.string()).optional(),
  rootAgent: z.string().min(1),
  model: z.string().optional(),
  messages: z.array(messageSchema),
  transcript: z.array(z.unknown()).optional(),
  status: z.enum(['active', 'completed', 'incomplete', 'interrupted', 'error', 'cancelled']),
  contextStart: count.optional(),
  checkpointId: z.string().optional(),
  pendingTurn: z.array(messageSchema).optional(),
  pendingInterrupts: z.array(pendingInterruptSchema),
  usage: z.looseObject({ promptTokens: count, completionTokens: count }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** "messages.3.role: Invalid option …": the first problems, with where they are. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

const TITLE_MAX = 60;

/** The first non-empty line of the first user message, whitespace collapsed, at most 60 characters. */
export function titleFrom(messages: readonly Message[]): string {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const line = m.content
      .split(/\r\n|[\n\r\u2028\u2029]/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l.length > 0);
    if (line) return truncate(line, TITLE_MAX);
  }
  return '';
}

function truncate(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}
