import { setSubAgents, type FlowAgent, type FlowAgentView } from '../agents/flow.js';
import type { RunContext } from '../agents/run-context.js';
import type { Agent, AgentEvent, AgentInput } from '../agents/types.js';
import type { ResumeInfo } from '../interrupt.js';
import { agentWithDeterministicTransferTo } from './deterministic-transfer.js';
import { ConfigError } from '../errors.js';
import { checkOptions, hasDescription, requireAgent, requireAgentList } from '../agents/options-check.js';

/** Settings of `supervisor`: the agent that hands out work and the agents it hands work to. */
export interface SupervisorConfig {
  /** Decides who works next; gets the transfer tool listing the sub-agents. */
  supervisor: Agent;
  /** Each hands control back to the supervisor when it finishes. */
  subAgents: Agent[];
}

/**
 * Eino's supervisor pattern: the supervisor transfers to a sub-agent, which transfers back
 * automatically when it finishes without being interrupted, also when it exits (an exit ends the
 * sub-agent's part, not the team's); an interrupted or failed sub-agent does not hand back. The team
 * runs as the supervisor's FlowAgent, so run paths read `[Sup, Sub1, Sup, Sub2, Sup]`.
 */
export class SupervisorAgent implements FlowAgentView {
  readonly type = 'Supervisor';
  /** The supervisor's FlowAgent, with the wrapped sub-agents as its transfer targets. */
  readonly flow: FlowAgent;

  constructor(readonly config: SupervisorConfig) {
    checkSupervisorConfig(config);
    const back = [config.supervisor.name];
    const wrapped = config.subAgents.map((agent) => agentWithDeterministicTransferTo({ agent, toAgentNames: back }));
    this.flow = setSubAgents(config.supervisor, wrapped);
  }

  get name(): string {
    return this.flow.name;
  }
  get description(): string {
    return this.flow.description;
  }
  get subAgents(): Agent[] {
    return this.config.subAgents;
  }

  toFlowAgent(): FlowAgent {
    return this.flow;
  }

  run(input: AgentInput, ctx?: RunContext): AsyncIterable<AgentEvent> {
    return this.flow.run(input, ctx);
  }

  resume(info: ResumeInfo, ctx: RunContext): AsyncIterable<AgentEvent> {
    return this.flow.resume(info, ctx);
  }
}

/** Eino's supervisor.Config {Supervisor, SubAgents}; the docs' `Workers` is adk's `subAgents`. */
function checkSupervisorConfig(config: unknown): void {
  const o = checkOptions('supervisor', config, { known: Object.keys({ supervisor: true, subAgents: true } satisfies Record<keyof SupervisorConfig, true>), aliases: { workers: 'subAgents', agents: 'subAgents' } });
  const sup = requireAgent('supervisor', 'supervisor', o.supervisor, ': the agent that hands out the work (a ChatModelAgent)');
  const subs = requireAgentList('supervisor', 'subAgents', o.subAgents, true);
  // The supervisor picks a sub-agent by its description (the transfer instruction lists them).
  const missing = subs.find((a) => !hasDescription(a));
  if (missing) throw new ConfigError(`supervisor: sub-agent '${missing.name}' has no description: the supervisor '${sup.name}' reads it to decide when to hand work to '${missing.name}'`);
}

/** Builds a SupervisorAgent: the supervisor transfers to sub-agents, each of which transfers back when done. */
export function supervisor(config: SupervisorConfig): SupervisorAgent {
  return new SupervisorAgent(config);
}
