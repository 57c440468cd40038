import * as z from 'zod';
import { PendingInterruptSchema, RunStatusSchema, TodoSchema, UsageSchema } from './event-schemas.js';

/**
 * A session's state, the one word every endpoint uses: `idle` (nothing ran yet, or nothing runs
 * and the last turn left no outcome), `running` (a turn is queued or running), else how its last
 * turn ended.
 */
export const SessionStatusSchema = z.enum(['idle', 'running', 'interrupted', 'completed', 'incomplete', 'error', 'cancelled']);
export type ServedStatus = z.infer<typeof SessionStatusSchema>;

export const ToolCallSchema = z.object({ id: z.string(), function: z.object({ name: z.string(), arguments: z.string().describe('The arguments as JSON text') }) });

/** A saved message; the person's own have no `agentName`. */
export const MessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  agentName: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  reasoningContent: z.string().optional(),
});

export const SessionCreatedSchema = z.object({ id: z.string().describe('The new session id') });

const shared = {
  id: z.string(),
  title: z.string(),
  agent: z.string().describe('Its root agent'),
  status: SessionStatusSchema,
  resumable: z.boolean().describe('POST /interrupts continues its stopped turn (interrupted, or cancelled at a safe point)'),
  usage: UsageSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const SessionSummarySchema = z.object({ ...shared, messageCount: z.number().int().nonnegative(), pendingInterrupts: z.number().int().nonnegative() });
export const SessionListSchema = z.object({ sessions: z.array(SessionSummarySchema) });

export const SessionViewSchema = z.object({
  ...shared,
  messages: z.array(MessageSchema),
  pendingTurn: z.array(MessageSchema).describe('What a stopped turn (waiting on a person, or cancelled) has done so far, until it ends'),
  pending: z.array(PendingInterruptSchema),
  todos: z.array(TodoSchema).describe('The last todo list a deep agent wrote'),
  lastEventId: z.number().int().nonnegative(),
  turnFrom: z.number().int().nonnegative().describe('The id of the first event of the latest turn'),
});

/** The result of a turn with `Accept: application/json`. */
export const TurnResultSchema = z.object({
  sessionId: z.string(),
  status: RunStatusSchema,
  reason: z.string().optional().describe('Why an incomplete turn stopped: length, content_filter, refusal, budget, approval_needed…'),
  output: z.string(),
  usage: UsageSchema,
  interrupts: z.array(PendingInterruptSchema).describe('What the turn waits on (also for an incomplete turn that stopped at a question nobody was there to answer)'),
  error: z.string().optional(),
  checkpointId: z.string().optional(),
});

export const CancelResultSchema = z.object({ cancelled: z.boolean().describe('A turn was running and stops at its next safe point') });

export interface AgentNode {
  name: string;
  type: string;
  model?: string | undefined;
  tools: string[];
  approval: string[];
  markers: string[];
  children: AgentNode[];
}
export const AgentNodeSchema: z.ZodType<AgentNode> = z.object({
  name: z.string(),
  type: z.string(),
  model: z.string().optional(),
  tools: z.array(z.string()),
  approval: z.array(z.string()),
  markers: z.array(z.string()),
  get children() {
    return z.array(AgentNodeSchema);
  },
});
export const AgentsSchema = z.object({ default: z.string().describe('The root agent a session gets without `agent`'), teams: z.array(AgentNodeSchema).describe('Each root agent, a team to start a session with') });

export const RESPONSE_SCHEMAS = {
  SessionStatus: SessionStatusSchema,
  Message: MessageSchema,
  ToolCall: ToolCallSchema,
  SessionCreated: SessionCreatedSchema,
  SessionSummary: SessionSummarySchema,
  SessionList: SessionListSchema,
  Session: SessionViewSchema,
  TurnResult: TurnResultSchema,
  CancelResult: CancelResultSchema,
  AgentNode: AgentNodeSchema,
  Agents: AgentsSchema,
} as const;
