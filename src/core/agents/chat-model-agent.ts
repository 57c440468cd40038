import { generate } from '../async-queue.js';
import { BudgetExceededError, cancelledBy, ConfigError, INCOMPLETE_FINISH_REASONS, IncompleteReplyError, MaxIterationsError, StructuredOutputError, toError } from '../errors.js';
import { CANCELLED_INFO, interruptAction, makeSignal, type InterruptDetails, type InterruptSignal, type ResumeInfo } from '../interrupt.js';
import { budgeted, budgetReached, isTurn, raiseOf, RunBudget, type AgentSpending, type BudgetLimits } from './run-budget.js';
import { costUsd, formatUsd } from '../models/pricing.js';
import type { ChatModel } from '../models/chat-model.js';
import { defaultRetryPolicy, type RetryPolicy } from '../models/retry.js';
import { systemMessage, userMessage, type Message } from '../schema/message.js';
import { exitTool, transferTool } from '../tools/control-tools.js';
import { parametersJsonSchema } from '../tools/parameters.js';
import type { Tool, ToolInfo } from '../tools/tool.js';
import { concatInstructions, fillPlaceholders, transferInstruction } from './instruction.js';
import { approvalMiddleware } from '../middlewares/approval.js';
import { outputCapMiddleware } from '../middlewares/output-cap.js';
import { executeToolCall, parseToolArguments } from '../tools/execute.js';
import { fire, type RunCallbacks, type ToolCallInfo } from '../callbacks.js';
import {
  runAfterAgent,
  runAfterModel,
  runBeforeAgent,
  runBeforeCompact,
  runBeforeModel,
  runBeforeStop,
  wrapAll,
  type AgentEnd,
  type AgentMiddleware,
  type MiddlewareContext,
  type ModelHandler,
  type ToolCallHandler,
} from './middleware.js';
import { callModel } from './model-step.js';
import { redactRequest, redactToolResult } from './redact-run.js';
import { DEFAULT_OUTPUT_RETRIES, StructuredOutput, type OutputSchema } from './output-schema.js';
import { callOptionsFor, createRunContext, type RunContext } from './run-context.js';
import { checkOptions, checkTools, checkTypes, requireChatModel, requireName, who } from './options-check.js';
import { runToolBatch, toolEvent, toolMessages, type DoneCall } from './tool-batch.js';
import { cutOffCalls } from './cut-off-calls.js';
import { refusalText } from './refusal-text.js';
import { errorEvent, messageEvent, type Agent, type AgentEvent, type AgentInput, type SubAgentAware } from './types.js';

/** Builds the messages of a run's first model call from the instruction, the input and the run (Eino's GenModelInput). */
export type GenModelInput = (instruction: string, input: AgentInput, ctx: RunContext) => Message[] | Promise<Message[]>;

/**
 * Settings of a ChatModelAgent: its model, instruction, tools and how it runs them. `T` is the type of
 * its structured answer, inferred from a zod `outputSchema`.
 */
export interface ChatModelAgentConfig<T = unknown> {
  name: string;
  description: string;
  instruction?: string | undefined;
  model: ChatModel;
  tools?: Tool[] | undefined;
  /** Tools whose result ends the run and becomes its final output. */
  returnDirectly?: string[] | undefined;
  /** Tools that stop the run for a person's approval before they execute. */
  approval?: string[] | undefined;
  /** Give the agent the `exit` tool (or a custom one). */
  exit?: boolean | Tool | undefined;
  /** Session value that receives the final text. */
  outputKey?: string | undefined;
  /** Model calls per run; default 20. */
  maxIterations?: number | undefined;
  /**
   * This agent's own caps in a run (its model calls, turns, tokens, cost), beside the run's: reaching
   * one stops the run at that point with a `budget` interrupt naming the agent; raised, it goes on.
   */
  budget?: BudgetLimits | undefined;
  genModelInput?: GenModelInput | undefined;
  retry?: Partial<RetryPolicy> | undefined;
  toolTimeoutMs?: number | undefined;
  /** Cap on one tool result, in characters (default 100,000). */
  maxToolOutputChars?: number | undefined;
  /**
   * Hooks around the run, each model call and each tool call (summarisation, result reduction, your
   * own). Approval and then the output cap are added around them.
   */
  middlewares?: AgentMiddleware[] | undefined;
  /**
   * The final answer must be JSON matching this schema (zod or JSON Schema). Providers that support
   * it get `response_format: json_schema`; elsewhere the instruction asks for JSON. An answer that
   * does not match is sent back with the problem, `outputRetries` times (default 2), then the run
   * fails with StructuredOutputError. The parsed value is the run result's `structured`.
   */
  outputSchema?: OutputSchema<T> | undefined;
  /** The schema's name for the provider (default `answer`). */
  outputSchemaName?: string | undefined;
  outputRetries?: number | undefined;
  /**
   * A `{key}` in the instruction with no session value of that name: `'error'` (default, as in Eino)
   * fails the run naming the key and the agent; `'keep'` leaves it as written. `{{key}}` is always
   * the literal text `{key}`.
   */
  missingPlaceholders?: 'error' | 'keep' | undefined;
}

/** The agent's ReAct state. Persisted in a checkpoint when a tool batch interrupts. */
export interface ReactState {
  messages: Message[];
  remainingIterations: number;
  /** Results of the in-flight batch (the last message's tool calls) that already finished. */
  done?: Record<string, DoneCall> | undefined;
  /** The middlewares' run-local values, by middleware. */
  values?: Record<string, unknown> | undefined;
  /** Answers that did not match the output schema so far. */
  outputMisses?: number | undefined;
  /** What this agent spent against its own `budget` where the run has no RunBudget to keep it (then per activation). */
  own?: (AgentSpending & { stopped?: true | undefined }) | undefined;
  /** The run stopped at this agent's own budget (a raise is for it, not the run's). */
  ownStopped?: true | undefined;
}

/** One run's view of the agent: tools after the middlewares' setup, and the composed handlers. */
interface RunExec {
  tools: Map<string, Tool>;
  toolInfos: ToolInfo[];
  returnDirectly: Set<string>;
  middlewares: AgentMiddleware[];
  mctx: MiddlewareContext;
  callModel: ModelHandler;
  callTool: ToolCallHandler;
  /** The conversation so far, for tools that read it (an agent tool with full history). */
  view: { messages: Message[] };
  output?: StructuredOutput | undefined;
}

interface Exec {
  instruction: string;
  tools: Map<string, Tool>;
  returnDirectly: Set<string>;
  middlewares: AgentMiddleware[];
  output?: StructuredOutput | undefined;
}

/** Every option of ChatModelAgentConfig (the compiler keeps the two in step). */
const CHAT_MODEL_AGENT_OPTIONS = {
  name: true, description: true, instruction: true, model: true, tools: true, returnDirectly: true, approval: true, exit: true, outputKey: true,
  maxIterations: true, genModelInput: true, retry: true, toolTimeoutMs: true, maxToolOutputChars: true, middlewares: true, outputSchema: true,
  outputSchemaName: true, outputRetries: true, missingPlaceholders: true, budget: true,
} satisfies Record<keyof ChatModelAgentConfig, true>;

/** Eino's ChatModelAgentConfig names that adk spells otherwise. */
const CHAT_MODEL_AGENT_ALIASES = { ToolsConfig: 'tools', ChatModel: 'model', Handlers: 'middlewares', ModelRetryConfig: 'retry' };

/** Eino requires `Model`; adk also checks every option's type, so a mistake is a ConfigError naming it. */
function checkChatModelAgentConfig(config: unknown): void {
  const o = checkOptions(who('ChatModelAgent', config), config, { known: Object.keys(CHAT_MODEL_AGENT_OPTIONS), aliases: CHAT_MODEL_AGENT_ALIASES });
  requireName('ChatModelAgent', 'name', o.name);
  const label = who('ChatModelAgent', o);
  // Eino's own error text stays in the message: "agent 'Model' is required".
  if (o.model === undefined || o.model === null) throw new ConfigError(`${label}: option 'model' is required (agent 'Model' is required)`);
  requireChatModel(label, 'model', o.model);
  checkTools(label, 'tools', o.tools);
  checkTypes(label, o, {
    description: 'string', instruction: 'string', returnDirectly: 'strings', approval: 'strings', exit: 'boolean-or-tool', outputKey: 'string',
    maxIterations: 'number', genModelInput: 'function', retry: 'object', toolTimeoutMs: 'number', maxToolOutputChars: 'number',
    middlewares: 'list', outputSchema: 'object', outputSchemaName: 'string', outputRetries: 'count', missingPlaceholders: 'string',
  });
}

/** A final answer that did not match the output schema: the model was asked again. */
const RETRY = Symbol('retry');

/** Model calls per run when `maxIterations` is not set. */
export const DEFAULT_MAX_ITERATIONS = 20;

/** Tells the run's callbacks of each tool call the middlewares let through (approved, arguments final). */
function observedTool(execute: ToolCallHandler, callbacks: RunCallbacks, agentName: string, runPath: readonly string[]): ToolCallHandler {
  return async (req) => {
    const c = req.call;
    let args = req.arguments;
    if (args === undefined) {
      const parsed = parseToolArguments(c.function.arguments);
      args = parsed.ok ? parsed.value : c.function.arguments;
    }
    const info: ToolCallInfo = { agentName, runPath, tool: c.function.name, callId: c.id, arguments: args };
    fire(callbacks, 'onToolStart', info);
    try {
      const result = await execute(req);
      fire(callbacks, 'onToolEnd', info, result.kind === 'done' ? { content: result.content, isError: result.isError } : { content: '', isError: false, interrupted: true });
      return result;
    } catch (e) {
      fire(callbacks, 'onToolError', info, toError(e));
      throw e;
    }
  };
}

/** The model's input by default: the instruction as the system message, then the run's messages. */
export const defaultGenModelInput: GenModelInput = (instruction, input) =>
  instruction ? [systemMessage(instruction), ...input.messages] : [...input.messages];

/** A ReAct agent: model, tools, repeat, with Eino's semantics. */
export class ChatModelAgent<T = unknown> implements Agent<T>, SubAgentAware {
  /** Type only (never set): its output schema's type, what `RunResult.structured` holds. */
  declare readonly structuredType?: T | undefined;
  readonly type = 'ChatModel';
  private subAgents: Agent[] = [];
  private parent?: Agent | undefined;
  private disallowParent = false;
  private frozen = false;
  private exec?: Exec | undefined;

  constructor(readonly config: ChatModelAgentConfig<T>) {
    checkChatModelAgentConfig(config);
  }

  get name(): string {
    return this.config.name;
  }
  get description(): string {
    return this.config.description ?? '';
  }

  onSetSubAgents(subAgents: Agent[]): void {
    this.assertNotFrozen();
    if (this.subAgents.length) throw new Error("agent's sub-agents has already been set");
    this.subAgents = subAgents;
  }
  onSetAsSubAgent(parent: Agent): void {
    this.assertNotFrozen();
    if (this.parent) throw new Error('agent has already been set as a sub-agent of another agent');
    this.parent = parent;
  }
  onDisallowTransferToParent(): void {
    this.assertNotFrozen();
    this.disallowParent = true;
  }
  private assertNotFrozen(): void {
    if (this.frozen) throw new Error('agent has been frozen after run');
  }

  /** Instruction and tool set, built once (Eino's prepareExecContext). */
  private prepare(): Exec {
    if (this.exec) return this.exec;
    this.frozen = true;
    const c = this.config;
    let instruction = c.instruction ?? '';
    const tools = new Map<string, Tool>((c.tools ?? []).map((t) => [t.name, t]));
    const returnDirectly = new Set(c.returnDirectly ?? []);
    const targets = [...this.subAgents, ...(this.parent && !this.disallowParent ? [this.parent] : [])];
    if (targets.length) {
      instruction = concatInstructions(instruction, transferInstruction(targets));
      tools.set(transferTool.name, transferTool);
      returnDirectly.add(transferTool.name);
    }
    if (c.exit) {
      const t = c.exit === true ? exitTool : c.exit;
      tools.set(t.name, t);
      returnDirectly.add(t.name);
    }
    // Approval outermost (nothing unapproved reaches any other layer), then the cap, which sees every
    // result last; the agent's own middlewares sit inside, next to the tool (reduction saves whole results).
    const own = c.middlewares ?? [];
    const middlewares = [
      // Those that must decide before anyone is asked (PreToolUse hooks) sit outside approval.
      ...own.filter((m) => m.beforeApproval),
      // Always there: with nothing to gate it still applies the run's refusals (a read-only mode).
      approvalMiddleware(c.approval ?? []),
      outputCapMiddleware(c.maxToolOutputChars),
      ...own.filter((m) => !m.beforeApproval),
    ];
    const output = c.outputSchema ? new StructuredOutput(c.outputSchema, c.outputSchemaName) : undefined;
    // A model that cannot be constrained is asked for JSON in its instruction.
    if (output && !c.model.structuredOutput) instruction = concatInstructions(instruction, output.instruction);
    this.exec = { instruction, tools, returnDirectly, middlewares, output };
    return this.exec;
  }

  /** The run's tools and handlers: middlewares may add tools (beforeAgent) and wrap calls. */
  private async startRun(exec: Exec, ctx: RunContext, values: Record<string, unknown>, emit: (e: AgentEvent) => void): Promise<{ run: RunExec; instruction: string }> {
    const tools = new Map(exec.tools);
    const mctx: MiddlewareContext = {
      agentName: this.name,
      runPath: ctx.runPath,
      model: this.config.model,
      signal: ctx.signal,
      tools,
      values,
      run: ctx,
      emit: (custom) => emit({ agentName: this.name, runPath: [], output: { custom } }),
      compacting: (info) => runBeforeCompact(exec.middlewares, mctx, info),
    };
    // Placeholders are filled in the agent's own instruction only: text a middleware adds (AGENTS.md, skills) stays as written.
    const instruction = fillPlaceholders(exec.instruction, ctx.session.values, { agent: this.name, missing: this.config.missingPlaceholders });
    const setup = await runBeforeAgent(exec.middlewares, mctx, { instruction, tools: [...tools.values()] });
    tools.clear();
    for (const t of setup.tools) tools.set(t.name, t);
    const toolInfos = [...tools.values()].map((t) => ({ name: t.name, description: t.description, parameters: parametersJsonSchema(t) }));
    const retry = { ...defaultRetryPolicy, ...this.config.retry };
    // The run's model and tool options for this agent (Runner's modelOptions, toolOptions, agents).
    const callOptions = callOptionsFor(ctx, this.name);
    // Under the run's budget (a replayed call is not asked: the journal answers above this): a budget never cuts a call in half.
    const modelCall: ModelHandler = (messages, options) =>
      budgeted(ctx, this.config.model, () =>
        callModel({ model: this.config.model, agentName: this.name, streaming: ctx.enableStreaming, retry, signal: ctx.signal, emit, callIds: ctx.callIds, callbacks: ctx.callbacks, runPath: ctx.runPath, secrets: ctx.secrets }, redactRequest(messages, ctx.secrets), { ...callOptions.modelOptions, ...options }),
      );
    // Innermost, under every middleware: what the journal replays is exactly what the model and the tool gave.
    const baseModel = ctx.journal ? ctx.journal.model(modelCall, ctx.address, { agentName: this.name, emit, callIds: ctx.callIds }) : modelCall;
    const toolEnv = { signal: ctx.signal, agentName: this.name, runPath: ctx.runPath, sessionValues: ctx.session.values, options: callOptions.toolOptions, emit, timeoutMs: this.config.toolTimeoutMs, runContext: ctx };
    const view: { messages: Message[] } = { messages: [] };
    const execute: ToolCallHandler = async (req) => {
      const refused = ctx.budget?.beforeToolCall();
      if (refused) return { kind: 'done', content: refused, isError: true };
      return redactToolResult(await executeToolCall(req.call, tools, { ...toolEnv, resume: req.resume, messages: view.messages }, req.arguments), ctx.secrets);
    };
    const journaled = ctx.journal ? ctx.journal.tool(execute, ctx.session.values) : execute;
    const baseTool = ctx.callbacks ? observedTool(journaled, ctx.callbacks, this.name, ctx.runPath) : journaled;
    const run: RunExec = {
      tools,
      toolInfos,
      returnDirectly: exec.returnDirectly,
      middlewares: exec.middlewares,
      mctx,
      callModel: wrapAll(baseModel, exec.middlewares, (m) => m.wrapModel, mctx),
      callTool: wrapAll(baseTool, exec.middlewares, (m) => m.wrapToolCall, mctx),
      view,
      output: exec.output,
    };
    return { run, instruction: setup.instruction };
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const values: Record<string, unknown> = {};
        const { run, instruction } = await this.startRun(this.prepare(), ctx, values, emit);
        const gen = this.config.genModelInput ?? defaultGenModelInput;
        const messages = await gen(instruction, input, ctx);
        await this.loopWithHooks(run, { messages, remainingIterations: this.maxIterations, values }, ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  resume(info: ResumeInfo, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const state = info.state as ReactState | undefined;
        if (!state?.messages) throw new Error(`agent '${this.name}' cannot resume: its saved state is missing`);
        const restored = structuredClone(state);
        restored.values ??= {};
        // A budget interrupt answered with `{ raise: {...} }`: the new limits hold for the rest of the run.
        const raise = info.hasData ? raiseOf(info.data) : undefined;
        const ownStop = restored.ownStopped === true;
        restored.ownStopped = undefined;
        // `{ stop: true }`: the person ends the run at the budget (incomplete, reason budget).
        if (info.hasData && (info.data as { stop?: unknown } | null)?.stop === true) {
          throw (ownStop ? this.ownReached(restored, ctx) : ctx.budget?.reached(isTurn(ctx.address))) ?? new BudgetExceededError('budget', 0, 0, 'stopped at the budget by the person');
        }
        // A raise that cannot be kept (a face let a bad figure through) changes nothing: the run stops
        // at the same budget again, still resumable, rather than ending and losing its checkpoint.
        try {
          if (raise && ownStop) {
            // This agent's own budget: the raise holds for it for the rest of the run (checked as the run's are).
            const own = this.ownOf(restored, ctx);
            const check = new RunBudget({ ...this.config.budget, ...own.limits });
            check.raise(raise);
            own.limits = check.limits;
          } else if (raise) ctx.budget?.raise(raise);
        } catch {
          // (the loop stops at the same budget again)
        }
        const { run } = await this.startRun(this.prepare(), ctx, restored.values, emit);
        await this.loopWithHooks(run, restored, ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  private get maxIterations(): number {
    const n = this.config.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    return n > 0 ? n : DEFAULT_MAX_ITERATIONS;
  }

  /** The loop between the middlewares' beforeAgent and afterAgent. */
  private async loopWithHooks(run: RunExec, state: ReactState, ctx: RunContext, emit: (e: AgentEvent) => void): Promise<void> {
    let end: AgentEnd = {};
    try {
      end = await this.loop(run, state, ctx, emit);
    } catch (e) {
      end = { error: toError(e) };
      throw e;
    } finally {
      await runAfterAgent(run.middlewares, run.mctx, state, end);
    }
  }

  private async loop(run: RunExec, state: ReactState, ctx: RunContext, emit: (e: AgentEvent) => void): Promise<AgentEnd> {
    ctx.callIds.reserve(state.messages);
    const current = run.view;
    for (;;) {
      current.messages = state.messages;
      const last = state.messages[state.messages.length - 1];
      if (!state.done || !last?.toolCalls?.length) {
        if (ctx.signal.aborted) return this.cancel(state, [], ctx, emit);
        if (state.remainingIterations <= 0) throw new MaxIterationsError(this.maxIterations);
        // A budget reached stops the run here, its state saved: raised and resumed, the loop goes on.
        const over = ctx.budget?.reached(isTurn(ctx.address));
        if (over) return this.budgetStop(state, over, ctx, emit);
        const ownOver = this.ownReached(state, ctx);
        if (ownOver) {
          state.ownStopped = true;
          return this.budgetStop(state, ownOver, ctx, emit, true);
        }
        state.remainingIterations--;
        let reply: Message;
        try {
          const request = await runBeforeModel(run.middlewares, run.mctx, state, { messages: state.messages, tools: run.toolInfos });
          reply = await run.callModel(request.messages, {
            tools: request.tools.length ? request.tools : undefined,
            ...(run.output ? { responseFormat: run.output.responseFormat } : {}),
          });
        } catch (e) {
          if (!ctx.signal.aborted) throw e;
          // The unfinished call is made again on resume, so it does not count.
          state.remainingIterations++;
          return this.cancel(state, [], ctx, emit);
        }
        state.messages.push(reply);
        this.countOwn(state, ctx, reply);
        await runAfterModel(run.middlewares, run.mctx, state, reply);
        if (reply.toolCalls?.length && reply.finishReason && INCOMPLETE_FINISH_REASONS.has(reply.finishReason)) {
          // Calls of a cut-off reply may hold half their arguments: none runs, each is answered.
          const cut = cutOffCalls(reply, this.name);
          for (const m of cut.results) {
            state.messages.push(m);
            emit({ ...messageEvent(m), agentName: this.name });
          }
          this.setOutput(ctx, reply.content);
          throw cut.error;
        }
        if (!reply.toolCalls?.length) {
          // A cut-off answer is kept but not passed off as finished.
          if (reply.finishReason && INCOMPLETE_FINISH_REASONS.has(reply.finishReason)) {
            this.setOutput(ctx, reply.content);
            throw new IncompleteReplyError(reply.finishReason, reply.finishReason === 'refusal' ? refusalText(reply.content) : undefined);
          }
          const structured = run.output ? this.acceptStructured(run.output, reply.content, state) : undefined;
          if (structured === RETRY) continue;
          // A middleware may send the run on (a Stop hook that blocks): its text is the next user message.
          const more = await runBeforeStop(run.middlewares, run.mctx, state, reply);
          if (more !== undefined && state.remainingIterations > 0 && !ctx.signal.aborted) {
            const message = userMessage(more);
            state.messages.push(message);
            emit({ ...messageEvent(message), agentName: this.name });
            continue;
          }
          if (structured) emit({ agentName: this.name, runPath: [], output: { structured: structured.value } });
          this.setOutput(ctx, reply.content);
          return { output: reply.content };
        }
        state.done = {};
      }
      current.messages = state.messages;
      const calls = state.messages[state.messages.length - 1].toolCalls!;
      const batch = await runToolBatch(
        {
          returnDirectly: run.returnDirectly,
          address: ctx.address,
          resume: ctx.resume,
          signal: ctx.signal,
          agentName: this.name,
          emit,
          handler: run.callTool,
        },
        calls,
        state.done!,
      );
      if (batch.cancelled) {
        state.done = batch.done;
        return this.cancel(state, batch.interrupts, ctx, emit);
      }
      if (batch.interrupts.length) {
        state.done = batch.done;
        const signal = makeSignal(ctx.address, { kind: 'composite', message: `agent '${this.name}' interrupted` }, state, batch.interrupts);
        emit({ agentName: this.name, runPath: [], action: { interrupted: interruptAction(signal) } });
        return { interrupted: true };
      }
      state.messages.push(...toolMessages(calls, batch.done));
      state.done = undefined;
      if (batch.returnDirectlyId) {
        const call = calls.find((c) => c.id === batch.returnDirectlyId)!;
        const entry = batch.done[call.id];
        emit(toolEvent(call, entry, this.name));
        this.setOutput(ctx, entry.content);
        return { output: entry.content };
      }
      await this.takeInbox(state, ctx, emit);
    }
  }

  /**
   * A cancelled run stops at its last safe point (before the unfinished model call, or with the
   * finished calls of the batch) and says so with a cancellation interrupt, which the Runner saves
   * as a checkpoint; resuming it without data continues. Pending tool interrupts stay pending.
   */
  private cancel(state: ReactState, pending: InterruptSignal[], ctx: RunContext, emit: (e: AgentEvent) => void): never {
    const signal = makeSignal(ctx.address, CANCELLED_INFO, state, pending);
    signal.cancelled = true;
    emit({ agentName: this.name, runPath: [], action: { interrupted: interruptAction(signal) } });
    throw cancelledBy(ctx.signal);
  }

  /** A budget is reached before the next model call: the run waits, at this safe point, for a person to raise it. */
  private budgetStop(state: ReactState, over: BudgetExceededError, ctx: RunContext, emit: (e: AgentEvent) => void, own = false): AgentEnd {
    const budget = { ...budgetReached(over), ...(own ? { agent: this.name } : {}) };
    const info: InterruptDetails = { kind: 'budget', message: over.message, budget };
    const signal = makeSignal(ctx.address, info, state);
    emit({ agentName: this.name, runPath: [], action: { interrupted: interruptAction(signal) } });
    return { interrupted: true };
  }

  /** This agent's own spending: the run's budget keeps it (every activation counts on), else its state. */
  private ownOf(state: ReactState, ctx: RunContext): AgentSpending {
    return ctx.budget ? ctx.budget.agent(this.name) : (state.own ??= { modelCalls: 0, tokens: 0, costUsd: 0 });
  }

  /** The agent's own budget the next model call would pass, if one is reached. */
  private ownReached(state: ReactState, ctx: RunContext): BudgetExceededError | undefined {
    const configured = this.config.budget;
    if (!configured) return undefined;
    const own = this.ownOf(state, ctx);
    const limits = { ...configured, ...own.limits };
    const over = (name: string, spent: number, limit: number | undefined, shown = String(spent), max = String(limit)) =>
      limit !== undefined && spent >= limit ? new BudgetExceededError(name, spent, limit, `budget reached: ${name} of agent '${this.name}' (${shown} spent of ${max}); the run stopped before its next call`) : undefined;
    return (
      over('max_model_calls', own.modelCalls, limits.maxModelCalls) ??
      over('max_turns', own.modelCalls, limits.maxTurns) ??
      over('max_tokens', own.tokens, limits.maxTokens) ??
      over('max_cost', own.costUsd, limits.maxCost, formatUsd(own.costUsd), limits.maxCost === undefined ? '' : formatUsd(limits.maxCost))
    );
  }

  /** A reply of this agent's model, counted against its own budget. */
  private countOwn(state: ReactState, ctx: RunContext, reply: Message): void {
    if (!this.config.budget) return;
    const own = this.ownOf(state, ctx);
    own.modelCalls++;
    if (reply.usage) {
      own.tokens += reply.usage.promptTokens + reply.usage.completionTokens;
      const price = this.config.model.price;
      if (price) own.costUsd += costUsd(reply.usage, price);
    }
  }

  /**
   * Checks a final answer against the output schema: a match is its value (emitted as
   * `output.structured` once the run ends with it); a miss is answered with the problem so the loop
   * asks again (RETRY), until the retries are spent.
   */
  private acceptStructured(output: StructuredOutput, text: string, state: ReactState): { value: unknown } | typeof RETRY {
    const checked = output.check(text);
    if (checked.ok) return { value: checked.value };
    const misses = (state.outputMisses ?? 0) + 1;
    const retries = this.config.outputRetries ?? DEFAULT_OUTPUT_RETRIES;
    if (misses > retries) throw new StructuredOutputError(misses, checked.error, text);
    state.outputMisses = misses;
    state.messages.push(userMessage(StructuredOutput.retryPrompt(checked.error)));
    return RETRY;
  }

  /** The safe point: every call of the batch is answered, the next model call has not started. */
  private async takeInbox(state: ReactState, ctx: RunContext, emit: (e: AgentEvent) => void): Promise<void> {
    for (const text of (await ctx.inbox?.take()) ?? []) {
      const message = userMessage(text);
      state.messages.push(message);
      emit({ ...messageEvent(message), agentName: this.name });
    }
  }

  private setOutput(ctx: RunContext, text: string): void {
    if (this.config.outputKey) ctx.session.values[this.config.outputKey] = text;
  }
}
