import * as z from 'zod';
import type { InterruptKind } from '../interrupt.js';
import type { BudgetState } from '../agents/run-budget.js';
import type { Message } from '../schema/message.js';

/** 2: metadata under `session:<id>`, messages append-only under `sessionlog:<id>:<index>`. 1: one record with every message. */
export const SESSION_VERSION = 2;
export const LEGACY_SESSION_VERSION = 1;

/** `active` while a turn runs; afterwards how the last turn ended (a run status). */
export type SessionStatus = 'active' | 'completed' | 'incomplete' | 'interrupted' | 'error' | 'cancelled';

/**
 * How a session runs when nobody watches it (`adk serve`'s `POST /v1/sessions {policy}`, its queued
 * turns on `adk worker`): saved with the session, so every process that runs its turns keeps it.
 * (Checked and applied by conversation/session-policy.ts.)
 */
export interface SessionPolicy {
  permissionMode?: 'default' | 'accept-edits' | 'plan' | 'bypass' | undefined;
  /** Rules in the settings files' language: `shell(npm test)`, `write_file(docs/*)`. */
  allow?: string[] | undefined;
  deny?: string[] | undefined;
  /** When a call needs a person: wait (ask), answer "no" and go on (deny), or end the run (fail). */
  onApproval?: 'ask' | 'deny' | 'fail' | undefined;
}

/** A session's goal (goal mode): the turns go on until `check` passes in the sandbox, or `maxAttempts` turns have tried. */
export interface SessionGoal {
  check: string;
  /** 1 for the first turn, 2 for the first turn after a failed check, … */
  attempt: number;
  maxAttempts: number;
  met?: boolean | undefined;
}

/** An interrupt the session waits on, as shown to a person and answered by id on resume. */
export interface PendingInterrupt {
  id: string;
  address: string;
  kind: InterruptKind;
  tool?: string | undefined;
  /** The call being approved (adk's id, unique in the run). */
  callId?: string | undefined;
  arguments?: unknown | undefined;
  /** The approved call started before adk stopped: it may have run already. */
  mayHaveRun?: boolean | undefined;
  /** The tool asks before every call here (shell without its sandbox): no grant answers it. */
  alwaysAsks?: boolean | undefined;
  /** What the call would change (a unified diff), for tools that preview their writes. */
  diff?: string | undefined;
  /** For a budget interrupt: which budget, spent and limit (`adk resume ID --raise max_cost=5` goes on). */
  budget?: { name: string; spent: number; limit: number; agent?: string | undefined } | undefined;
  message: string;
}

/**
 * A turn's file checkpoint: snapshots (tree ids in a shadow repository outside the workspace, kept
 * by the face that made them) of the workspace's files before the turn and after its last run.
 */
export interface FileCheckpoint {
  /** Index in the session's log of the user message that started the turn. */
  message: number;
  before: string;
  after?: string | undefined;
  /** Files left out of `before` for their size: a restore never deletes them. */
  big?: string[] | undefined;
}

/** What replaced the messages before `contextStart` in the model's context. */
export interface ContextSummary {
  /** The summary the model wrote (it folds in any earlier summary). */
  text: string;
  /** How many messages, from the start of the session, it stands for. */
  summarized: number;
  at: string;
}

/**
 * A saved conversation. The small metadata part is stored under `session:<id>`; each message is
 * its own record under `sessionlog:<id>:<index>`, written once, so a turn costs the same whatever
 * the session's length. `messages` holds what was loaded: the whole log, or its tail from
 * `messagesFrom` (what the model's context needs).
 */
export interface SessionRecord {
  version: 2;
  id: string;
  /** The first user line, at most 60 characters. */
  title: string;
  /** The agents file the team came from (unset: the bundled one). */
  agentsFile?: string | undefined;
  /** SHA-256 of that file when the session started: resuming with a changed file is refused. */
  agentsHash?: string | undefined;
  /** Realpath of the folder the tools work in; resume runs there, whatever the current folder. */
  workspace?: string | undefined;
  /** Tools the person allowed without asking for the rest of this session ("always allow"). */
  grants?: string[] | undefined;
  /** `adk serve` shows this session (made through it, or shared with `adk sessions share`); it shows no other. */
  served?: boolean | undefined;
  rootAgent: string;
  model?: string | undefined;
  /** Loaded messages; `messages[0]` is message number `messagesFrom` of the session. Never stored in the metadata. */
  messages: Message[];
  /** Index of the first loaded message (default 0: all were loaded). */
  messagesFrom?: number | undefined;
  /** Messages confirmed in the log (set by the store on load and save). */
  messageCount: number;
  /** Where the model's context begins: `/clear` and compaction move it. Earlier messages stay on disk. */
  contextStart?: number | undefined;
  /** The summary standing in for the messages before `contextStart` (unset after `/clear`). */
  contextSummary?: ContextSummary | undefined;
  /** The last todo list a deep agent wrote. */
  todos?: Array<{ content: string; status: string; activeForm?: string }> | undefined;
  /** Where the workspace's files stood at each turn the REPL checkpointed (`/rewind` restores them). */
  fileCheckpoints?: FileCheckpoint[] | undefined;
  /** The session this one was forked from (`/fork`, `adk resume --fork`). */
  forkedFrom?: string | undefined;
  /** Goal mode (`adk run --until CHECK`): the check, the attempt under way, and whether it passed. */
  goal?: SessionGoal | undefined;
  /** How the session runs unattended (a served session's `policy`): every process that runs its turns keeps it. */
  policy?: SessionPolicy | undefined;
  /** The budget of the run under way (its limits and what it spent), kept so a resumed run counts on. */
  budget?: BudgetState | undefined;
  status: SessionStatus;
  checkpointId?: string | undefined;
  /** Messages of a turn that stopped (interrupted or cancelled) and may be resumed; kept out of `messages` until it ends. */
  pendingTurn?: Message[] | undefined;
  pendingInterrupts: PendingInterrupt[];
  /**
   * The id the caller gave the latest turn or continuation (a queued job's): while `status` is
   * `active` it has started and not ended, so another worker picking the job up runs it again
   * (with its journal) instead of starting it a second time.
   */
  turnId?: string | undefined;
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

const partSchema = z.looseObject({
  type: z.enum(['image', 'file']),
  mimeType: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  size: count,
  name: z.string().optional(),
  data: z.string().optional(),
});

export const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  parts: z.array(partSchema).optional(),
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
  kind: z.enum(['approval', 'input', 'plan_review', 'budget', 'custom']),
  budget: z.looseObject({ name: z.string(), spent: z.number(), limit: z.number() }).optional(),
  tool: z.string().optional(),
  callId: z.string().optional(),
  arguments: z.unknown().optional(),
  mayHaveRun: z.boolean().optional(),
  alwaysAsks: z.boolean().optional(),
  message: z.string(),
});

const metadataFields = {
  id: z.string().min(1),
  title: z.string(),
  agentsFile: z.string().optional(),
  agentsHash: z.string().optional(),
  workspace: z.string().optional(),
  grants: z.array(z.string()).optional(),
  served: z.boolean().optional(),
  rootAgent: z.string().min(1),
  model: z.string().optional(),
  status: z.enum(['active', 'completed', 'incomplete', 'interrupted', 'error', 'cancelled']),
  contextStart: count.optional(),
  contextSummary: z.looseObject({ text: z.string(), summarized: count, at: z.string() }).optional(),
  todos: z.array(z.looseObject({ content: z.string(), status: z.string(), activeForm: z.string().optional() })).optional(),
  fileCheckpoints: z.array(z.looseObject({ message: count, before: z.string(), after: z.string().optional(), big: z.array(z.string()).optional() })).optional(),
  forkedFrom: z.string().optional(),
  goal: z.looseObject({ check: z.string().min(1), attempt: count, maxAttempts: count, met: z.boolean().optional() }).optional(),
  budget: z.looseObject({ limits: z.looseObject({}), spent: z.looseObject({}) }).optional(),
  policy: z
    .looseObject({
      permissionMode: z.enum(['default', 'accept-edits', 'plan', 'bypass']).optional(),
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      onApproval: z.enum(['ask', 'deny', 'fail']).optional(),
    })
    .optional(),
  checkpointId: z.string().optional(),
  pendingTurn: z.array(messageSchema).optional(),
  pendingInterrupts: z.array(pendingInterruptSchema),
  turnId: z.string().optional(),
  usage: z.looseObject({ promptTokens: count, completionTokens: count }),
  createdAt: z.string(),
  updatedAt: z.string(),
};

// Loose objects: fields added by a later adk that keeps the version survive a save by this one.
/** The metadata record of version 2 (no messages). */
export const sessionMetadataSchema = z.looseObject({ ...metadataFields, version: z.literal(SESSION_VERSION), messageCount: count });

/** A version 1 record: every message inline. Read, and rewritten as version 2 on the next save. */
export const legacySessionRecordSchema = z.looseObject({
  ...metadataFields,
  version: z.literal(LEGACY_SESSION_VERSION),
  messages: z.array(messageSchema),
  transcript: z.array(z.unknown()).optional(),
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
