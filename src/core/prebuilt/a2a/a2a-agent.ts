import { generate } from '../../async-queue.js';
import { ConfigError, toError } from '../../errors.js';
import { interruptAction, makeSignal, type InterruptDetails, type ResumeInfo } from '../../interrupt.js';
import { createRunContext, type RunContext } from '../../agents/run-context.js';
import { errorEvent, type Agent, type AgentEvent, type AgentInput } from '../../agents/types.js';
import { answerText } from '../../tools/builtin/ask-user.js';
import { parseAllowHosts } from '../../tools/net/address-policy.js';
import type { Message } from '../../schema/message.js';
import { connectA2a, type A2aConnection } from './a2a-connection.js';
import { runA2aTask, type A2aTaskIds } from './a2a-task.js';

/** Options of `new A2aAgent`: where the remote agent is, and what adk calls it. */
export interface A2aAgentOptions {
  /** The agent's base URL (its card at `/.well-known/agent-card.json`) or its card's own URL. */
  url: string;
  /** Default: the card's name, made a valid agent name. */
  name?: string | undefined;
  /** Default: the card's description. */
  description?: string | undefined;
  /** Private hosts the agent may be reached at (ADK_FETCH_ALLOW_HOSTS's form: host, host:port, CIDR). */
  allowHosts?: readonly string[] | undefined;
  /** An open connection (`A2aAgent.connect` makes one while reading the card). */
  connection?: A2aConnection | undefined;
}

/** What an `input-required` interrupt keeps (in the checkpoint): the remote task to answer on. */
export interface A2aInterruptState extends A2aTaskIds {
  url: string;
  question: string;
}

/** Session value holding the remote conversation (A2A context) of this agent, so later turns continue it. */
const contextKey = (agent: string) => `a2a_context:${agent}`;

/**
 * A remote agent reached over A2A (a2a-protocol.org), usable wherever an adk agent is: a sub-agent
 * transferred to, a workflow step, an agent tool. Each run sends the person's latest message on the
 * remote conversation and streams the task back: text as it is written, status updates as custom
 * events. `input-required` becomes an interrupt (kind `input`, the remote's question as its
 * message) whose answer is sent on the same remote task; `auth-required`, `failed`, `rejected` and
 * `canceled` end the run with an error saying so.
 */
export class A2aAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly type = 'A2A';
  private connection?: Promise<A2aConnection>;

  constructor(readonly options: A2aAgentOptions) {
    const name = options.name ?? options.connection?.card.name;
    if (!name) throw new ConfigError(`A2aAgent: a name is needed for the A2A agent at ${options.url} (give one, or use A2aAgent.connect to read its card)`);
    this.name = name;
    this.description = options.description ?? options.connection?.card.description ?? '';
    if (options.connection) this.connection = Promise.resolve(options.connection);
  }

  /** Reads the agent's card first: its name (made a valid agent name) and description are the defaults. */
  static async connect(options: A2aAgentOptions): Promise<A2aAgent> {
    const connection = await connectA2a(options.url, parseAllowHosts(options.allowHosts ?? []));
    return new A2aAgent({ ...options, connection, name: options.name ?? agentName(connection.card.name, options.url) });
  }

  run(input: AgentInput, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const contextId = ctx.session.values[contextKey(this.name)];
        await this.turn(lastUserText(input.messages), { contextId: typeof contextId === 'string' ? contextId : undefined }, ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  /** Answers the remote's question on the task that asked it; without an answer, asks again (same id). */
  resume(info: ResumeInfo, ctx: RunContext = createRunContext()): AsyncIterable<AgentEvent> {
    return generate<AgentEvent>(
      async (emit) => {
        const state = info.state as A2aInterruptState | undefined;
        if (!state?.taskId) throw new Error(`A2A agent '${this.name}' cannot resume: the remote task it waited on is not in the checkpoint`);
        const answer = info.isResumeTarget && info.hasData ? answerText(info.data) : undefined;
        if (answer === undefined) return this.ask(state, emit, ctx, info.id);
        await this.turn(answer, { taskId: state.taskId, contextId: state.contextId }, ctx, emit);
      },
      (e) => errorEvent(toError(e), this.name),
    );
  }

  private async turn(text: string, ids: Partial<A2aTaskIds>, ctx: RunContext, emit: (e: AgentEvent) => void): Promise<void> {
    this.connection ??= connectA2a(this.options.url, parseAllowHosts(this.options.allowHosts ?? []));
    const { client } = await this.connection;
    const end = await runA2aTask(client, { text, ...ids }, { url: this.options.url, agentName: this.name, streaming: ctx.enableStreaming, signal: ctx.signal, emit });
    if (end.contextId) ctx.session.values[contextKey(this.name)] = end.contextId;
    if (end.question !== undefined) this.ask({ url: this.options.url, taskId: end.taskId, contextId: end.contextId, question: end.question }, emit, ctx);
  }

  private ask(state: A2aInterruptState, emit: (e: AgentEvent) => void, ctx: RunContext, id?: string): void {
    const info: InterruptDetails = { kind: 'input', message: state.question || `The A2A agent '${this.name}' needs more input.` };
    emit({ agentName: this.name, runPath: [], action: { interrupted: interruptAction(makeSignal(ctx.address, info, state, [], id)) } });
  }
}

/** The text the remote is sent: the latest message of the person (context lines of other agents skipped). */
function lastUserText(messages: readonly Message[]): string {
  const users = messages.filter((m) => m.role === 'user');
  const own = users.filter((m) => !m.content.startsWith('For context:'));
  return (own.at(-1) ?? users.at(-1))?.content ?? '';
}

/** A card's name as an adk agent name (transfer targets and tool names: letters, digits, _ and -). */
export function agentName(cardName: string, url: string): string {
  const name = cardName.trim().replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^[^A-Za-z_]+/, '').slice(0, 64);
  if (!name) throw new ConfigError(`the A2A agent at ${url} has no usable name in its card: give it one ({ a2a: …, name: … })`);
  return name;
}
