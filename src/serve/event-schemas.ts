import * as z from 'zod';

/**
 * The events of a turn as `adk serve` streams them (SSE `data:`) and `adk run --json` prints them,
 * one schema per `type`. Events stay open (`looseObject`) and `/openapi.json` is made from the
 * input side (no `additionalProperties: false`): a field added later breaks no client.
 */
const where = { agent: z.string().describe('The agent that produced the event'), runPath: z.array(z.string()).describe('Agents from the root to this one (the transfer path)') };
const event = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.looseObject({ type: z.literal(type), ...shape });

export const UsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  contextTokens: z.number().int().nonnegative().optional(),
  contextWindow: z.number().int().positive().optional(),
  /** The same, per model, when the turn's requests went to more than the one model (sub-agents, fallbacks, summaries). */
  byModel: z.record(z.string(), z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() })).optional(),
});

/** What a waiting interrupt asks: approve a call (with the diff it would write), answer a question, review a plan. */
export const PendingInterruptSchema = z.object({
  id: z.string(),
  address: z.string(),
  kind: z.enum(['approval', 'input', 'plan_review', 'budget', 'custom', 'composite']),
  tool: z.string().optional(),
  callId: z.string().optional(),
  arguments: z.unknown().optional(),
  mayHaveRun: z.boolean().optional().describe('The approved call started before adk stopped: it may have run already'),
  alwaysAsks: z.boolean().optional().describe('The tool asks before every call here (shell without its sandbox): "always allow" does not apply to it'),
  plan: z.array(z.string()).optional(),
  diff: z.string().optional().describe('What the call would change, as a unified diff'),
  budget: z
    .object({ name: z.string(), spent: z.number(), limit: z.number(), agent: z.string().optional().describe("Set when it is that agent's own budget (its `budget:` in the agents file)") })
    .optional()
    .describe('A budget reached (max_cost, max_model_calls, …): answer {"raise": {"max_cost": 5}} to go on'),
  data: z.unknown().optional(),
  message: z.string(),
});

export const RunStatusSchema = z.enum(['completed', 'incomplete', 'interrupted', 'error', 'cancelled']).describe('How a turn ended');

export const TodoSchema = z.object({ content: z.string(), status: z.string(), activeForm: z.string().optional() });

export const SessionStartEvent = event('session', { sessionId: z.string(), agent: z.string() });
export const DeltaEvent = event('delta', { ...where, content: z.string() });
export const ThoughtEvent = event('thought', { ...where, content: z.string() });
export const MessageEvent = event('message', { ...where, role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string(), reasoning: z.string().optional() });
export const ToolCallEvent = event('tool_call', { ...where, id: z.string(), name: z.string(), arguments: z.unknown() });
export const ToolResultEvent = event('tool_result', { ...where, id: z.string(), name: z.string(), content: z.string(), isError: z.boolean(), structured: z.unknown().optional() });
export const TransferEvent = event('transfer', { ...where, to: z.string() });
export const RetryEvent = event('retry', { ...where, attempt: z.number().int(), delayMs: z.number(), error: z.string() });
export const ErrorEvent = event('error', { ...where, message: z.string() });
export const CompactionEvent = event('compaction', { ...where, summarized: z.number().int(), dropped: z.boolean().optional(), error: z.string().optional() });
export const FallbackEvent = event('fallback', { ...where, from: z.string(), to: z.string(), error: z.string(), text: z.string() });
export const NoticeEvent = event('notice', { ...where, kind: z.string(), text: z.string() });
export const TodosEvent = event('todos', { ...where, todos: z.array(TodoSchema) });
export const InterruptEvent = event('interrupt', { agent: z.string(), checkpointId: z.string(), interrupts: z.array(PendingInterruptSchema) });
export const DoneEvent = event('done', { status: RunStatusSchema, reason: z.string().optional(), sessionId: z.string(), output: z.string(), usage: UsageSchema });

/** Every event, told apart by `type` (the SSE `event:` field says the same). */
export const SessionEventSchema = z.discriminatedUnion('type', [
  SessionStartEvent,
  DeltaEvent,
  ThoughtEvent,
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  TransferEvent,
  RetryEvent,
  ErrorEvent,
  CompactionEvent,
  FallbackEvent,
  NoticeEvent,
  TodosEvent,
  InterruptEvent,
  DoneEvent,
]);
export type SessionEventData = z.infer<typeof SessionEventSchema>;

/** The component names of the event schemas in `/openapi.json`. */
export const EVENT_SCHEMAS = {
  SessionStartEvent,
  DeltaEvent,
  ThoughtEvent,
  MessageEvent,
  ToolCallEvent,
  ToolResultEvent,
  TransferEvent,
  RetryEvent,
  ErrorEvent,
  CompactionEvent,
  FallbackEvent,
  NoticeEvent,
  TodosEvent,
  InterruptEvent,
  DoneEvent,
  SessionEvent: SessionEventSchema,
  PendingInterrupt: PendingInterruptSchema,
  Usage: UsageSchema,
  Todo: TodoSchema,
  RunStatus: RunStatusSchema,
} as const;
