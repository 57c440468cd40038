import { generate } from '../../async-queue.js';
import { toError } from '../../errors.js';
import { createRunContext, type RunContext } from '../../agents/run-context.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from '../../agents/types.js';
import { interruptAction, makeSignal, type InterruptDetails, type ResumeInfo } from '../../interrupt.js';
import type { ChatModel } from '../../models/chat-model.js';
import type { RetryPolicy } from '../../models/retry.js';
import { assistantMessage, systemMessage, userMessage, type Message } from '../../schema/message.js';
import { PLAN_TOOL, PLANNER_PROMPT } from './prompts.js';
import { parsePlan, PLAN_SESSION_KEY, USER_INPUT_SESSION_KEY, type Plan } from './session.js';
import { callForcedTool } from './tool-call-step.js';
import { checkOptions, checkTypes, requireChatModel } from '../../agents/options-check.js';

/** Settings of the planner: the model that writes the plan (forced to call the `plan` tool). */
export interface PlannerConfig {
  /** Called with the `plan` tool forced. */
  model: ChatModel;
  /** Replaces Eino's PlannerPrompt as the system message. */
  instruction?: string | undefined;
  /** Stop after each plan so a person accepts it or sends it back with feedback. */
  review?: boolean | undefined;
  retry?: Partial<RetryPolicy> | undefined;
}

/** The answer to a plan review: accept, or feedback from which the planner makes a revised plan. */
export type PlanReviewAnswer = { accept: true } | { accept: false; feedback?: string };

/** Saved while a plan waits for review: the planner's conversation (ending with the plan) and the plan. */
interface ReviewState {
  messages: Message[];
  plan: Plan;
}

/** Eino's planner: turns the objective into a plan through the forced `plan` tool. */
export class Planner implements Agent {
  readonly name = 'planner';
  readonly description = 'a planner agent';
  readonly type = 'Planner';

  constructor(readonly config: PlannerConfig) {
    const o = checkOptions('Planner', config, {
      known: Object.keys({ model: true, instruction: true, review: true, retry: true } satisfies Record<keyof PlannerConfig, true>),
      aliases: { ChatModelWithFormattedOutput: 'model', ToolCallingChatModel: 'model', ChatModel: 'model' },
    });
    requireChatModel('Planner', 'model', o.model);
    checkTypes('Planner', o, { instruction: 'string', review: 'boolean', retry: 'object' });
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        ctx.session.values[USER_INPUT_SESSION_KEY] = input.messages;
        const messages = [systemMessage(this.config.instruction ?? PLANNER_PROMPT), ...input.messages];
        await this.plan(messages, ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  /** Continues a plan review: accepted, the plan stands; with feedback, a revised plan is made and reviewed. */
  resume(info: ResumeInfo, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const state = info.state as ReviewState | undefined;
        if (!state?.messages || !state.plan) throw new Error("agent 'planner' cannot resume: its saved plan review is missing");
        const answer = info.isResumeTarget && info.hasData ? asReviewAnswer(info.data) : undefined;
        // Not answered (or not understood): ask again, under the same id.
        if (!answer) return this.askReview(state, ctx, emit, info.id);
        ctx.session.values[PLAN_SESSION_KEY] = state.plan;
        if (answer.accept) return;
        await this.plan([...state.messages, userMessage(feedbackMessage(answer.feedback))], ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  private async plan(messages: Message[], ctx: RunContext, emit: (e: AgentEvent) => void): Promise<void> {
    const call = await callForcedTool(
      { model: this.config.model, agentName: this.name, ctx, emit, retry: this.config.retry },
      messages,
      [PLAN_TOOL],
      { name: PLAN_TOOL.name },
    );
    const plan = parsePlan(call.function.arguments);
    ctx.session.values[PLAN_SESSION_KEY] = plan;
    if (this.config.review) this.askReview({ messages: [...messages, assistantMessage(call.function.arguments)], plan }, ctx, emit);
  }

  private askReview(state: ReviewState, ctx: RunContext, emit: (e: AgentEvent) => void, id?: string): void {
    const info: InterruptDetails = { kind: 'plan_review', message: 'Review the plan', plan: state.plan.steps };
    const signal = makeSignal(ctx.address, info, state, [], id);
    emit({ agentName: this.name, runPath: [], action: { interrupted: interruptAction(signal) } });
  }
}

/** @deprecated Use `new Planner(config)` (Eino's NewPlanner). */
export function newPlanner(config: PlannerConfig): Planner {
  return new Planner(config);
}

function asReviewAnswer(data: unknown): PlanReviewAnswer | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as Record<string, unknown>;
  if (d.accept === true) return { accept: true };
  if (d.accept === false) return { accept: false, feedback: typeof d.feedback === 'string' ? d.feedback : undefined };
  return undefined;
}

/** What the planner is told when its plan is sent back. */
export function feedbackMessage(feedback?: string): string {
  const text = feedback?.trim();
  return `The plan was not accepted.${text ? ` Feedback from the user: ${text}` : ''}
Revise the plan accordingly and call '${PLAN_TOOL.name}' with the complete revised plan.`;
}
