import { buildCheckpoint, type Checkpoint } from '../checkpoint.js';
import { nestedCallbacks } from '../models/usage-meter.js';
import { ResumeContext, type AddressSegment, type InterruptSignal } from '../interrupt.js';
import { userMessage, type Message } from '../schema/message.js';
import { ToolInterrupt, type JsonSchema, type Tool, type ToolContext, type ToolOutput } from '../tools/tool.js';
import { toFlowAgent } from './flow.js';
import { ConfigError } from '../errors.js';
import { checkOptions, checkTypes, describeValue, isAgent } from './options-check.js';
import { rewriteMessage } from './history.js';
import { createRunContext, type RunContext } from './run-context.js';
import { Session } from './session.js';
import { eventMessage, type Agent, type AgentEvent, type AgentInput } from './types.js';
import { genTransferMessages } from './transfer-messages.js';

/** Options of `agentTool`: how the inner agent is exposed as a tool and what it sees of the caller. */
export interface AgentToolOptions {
  /** Forward the inner agent's events to the caller's stream, with run paths `[caller…, inner…]`. */
  emitInternalEvents?: boolean | undefined;
  /** Give the inner agent the caller's conversation (rewritten as context) instead of `request`. */
  fullChatHistoryAsInput?: boolean | undefined;
  /** Per-call timeout; by default none (the inner agent is bounded by its own iterations). */
  timeoutMs?: number | undefined;
  /** What the model reads about the tool (default: the agent's description). */
  description?: string | undefined;
  /** The tool's name (default: the agent's); interrupt addresses inside use it too. */
  name?: string | undefined;
}

/** Eino's default agent-tool parameters. */
export const AGENT_TOOL_PARAMETERS: JsonSchema = {
  type: 'object',
  properties: { request: { type: 'string', description: 'request to be processed' } },
  required: ['request'],
};

const INTERRUPTED_INFO = { kind: 'custom', message: 'agent tool interrupt' } as const;

/** Every option of AgentToolOptions (the compiler keeps the two in step). */
const AGENT_TOOL_OPTIONS = Object.keys({ emitInternalEvents: true, fullChatHistoryAsInput: true, timeoutMs: true, description: true, name: true } satisfies Record<keyof AgentToolOptions, true>);

/**
 * An agent used as a tool (Eino's NewAgentTool). The inner agent runs like under its own Runner:
 * its own history, the caller's session values and cancellation. Its result is the text of its last
 * event. Its actions (exit, transfer, break loop) never reach the caller; an interrupt inside becomes
 * this call's interrupt, holding the inner checkpoint so a resume re-enters the inner agent.
 */
export function agentTool(agent: Agent, options: AgentToolOptions = {}): Tool<{ request: string }> {
  if (agent === undefined || agent === null) throw new ConfigError('agentTool: the agent is required');
  if (!isAgent(agent)) throw new ConfigError(`agentTool: the agent must be an agent (an object with a name and run()), got ${describeValue(agent)}`);
  // Eino's errors: "agent tool requires a non-empty Name" / "… Description".
  if (!agent.name.trim()) throw new ConfigError('agentTool: the agent has no name (agent tool requires a non-empty Name)');
  const label = `agentTool '${agent.name}'`;
  const o = checkOptions(label, options, { known: AGENT_TOOL_OPTIONS, aliases: { WithFullChatHistoryAsInput: 'fullChatHistoryAsInput', WithAgentInputSchema: '(not supported: the tool takes { request })' } });
  checkTypes(label, o, { emitInternalEvents: 'boolean', fullChatHistoryAsInput: 'boolean', timeoutMs: 'number', description: 'string', name: 'string' });
  const description = options.description?.trim() ? options.description : agent.description;
  if (typeof description !== 'string' || !description.trim()) {
    throw new ConfigError(`${label}: the agent has no description, and the model reads the tool's description to decide when to call it (agent tool requires a non-empty Description): give the agent one, or the tool one with { description }`);
  }
  return {
    name: options.name ?? agent.name,
    readOnly: true,
    description,
    parameters: AGENT_TOOL_PARAMETERS,
    timeoutMs: options.timeoutMs ?? 0,
    execute: (args, ctx) => runAgentTool(agent, args.request, ctx, options),
  };
}

async function runAgentTool(agent: Agent, request: string, ctx: ToolContext, options: AgentToolOptions): Promise<ToolOutput> {
  const caller = ctx.runContext;
  const flow = toFlowAgent(agent);
  // Inner addresses nest under this call: agent:outer;tool:inner:call_1;agent:inner;…
  const address: AddressSegment[] = [...(caller?.address ?? []), { type: 'tool', id: options.name ?? agent.name, subId: ctx.callId }];
  // Approvals granted ahead and the at-most-once ledger reach the calls inside, as they reach the caller's own.
  // The caller's callbacks see the inner model requests (their usage counts), marked as nested.
  const base = { address, signal: ctx.signal, callbacks: nestedCallbacks(caller?.callbacks), approvalPolicy: caller?.approvalPolicy, sideEffects: caller?.sideEffects, artifacts: caller?.artifacts, secrets: caller?.secrets, callOptions: caller?.callOptions, budget: caller?.budget };

  let inner: RunContext;
  let events: AsyncIterable<AgentEvent>;
  if (ctx.resume.wasInterrupted) {
    const cp = ctx.resume.state as Checkpoint | undefined;
    if (!cp?.rootInput || !cp.session) throw new Error(`agent tool '${agent.name}' interrupt has happened, but cannot find interrupt state`);
    inner = createRunContext({
      ...base,
      session: new Session(ctx.sessionValues, cp.session.events),
      rootInput: cp.rootInput,
      enableStreaming: cp.enableStreaming,
      // The caller's resume data covers the inner points too: their addresses nest under this call.
      resume: caller?.resume ?? new ResumeContext(cp.interrupts),
    });
    events = flow.resume(undefined, inner);
  } else {
    const messages = options.fullChatHistoryAsInput ? chatHistoryInput(ctx, agent.name) : [userMessage(request)];
    const input: AgentInput = { messages, enableStreaming: caller?.enableStreaming ?? false };
    inner = createRunContext({ ...base, session: new Session(ctx.sessionValues), rootInput: input, enableStreaming: input.enableStreaming });
    events = flow.run(input, inner);
  }

  let last: AgentEvent | undefined;
  let interrupt: { signal: InterruptSignal; runPath: string[] } | undefined;
  for await (const e of events) {
    if (e.error) throw e.error;
    last = e;
    if (e.action?.interrupted) {
      interrupt = { signal: e.action.interrupted.signal, runPath: e.runPath };
      continue;
    }
    if (options.emitInternalEvents) ctx.emit({ ...e, runPath: [...ctx.runPath, ...e.runPath] });
  }
  if (interrupt) {
    const cp = await buildCheckpoint(inner.rootInput!, inner.session, interrupt.signal, interrupt.runPath, inner.enableStreaming);
    throw new ToolInterrupt(INTERRUPTED_INFO, cp, [interrupt.signal]);
  }
  if (!last) throw new Error('no event returned');
  const content = (await eventMessage(last))?.content ?? '';
  // The inner run's messages go with the result, for trajectories (the model sees only `content`).
  // Its request (with the full chat history as input: only what the inner run added, not a copy of the caller's history).
  const input = options.fullChatHistoryAsInput ? [] : (inner.rootInput?.messages ?? []).filter((m) => m.role !== 'system');
  const messages = [...input, ...(await inner.session.materialize()).filter((e) => e.message).map((e) => ({ ...e.message!, agentName: e.agentName }))];
  return { content, subRun: { agent: agent.name, messages } };
}

/**
 * Eino's getReactChatHistory: the caller's conversation without its system messages and without
 * the call being made, then a transfer to the inner agent; the caller's own messages become context.
 */
function chatHistoryInput(ctx: ToolContext, dest: string): Message[] {
  const history = (ctx.messages ?? []).slice(0, -1);
  const caller = ctx.runPath[ctx.runPath.length - 1] ?? ctx.agentName;
  return [...history, ...genTransferMessages(dest)]
    .filter((m) => m.role !== 'system')
    .map((m) => (m.role === 'assistant' || m.role === 'tool' ? rewriteMessage(m, caller) : m));
}
