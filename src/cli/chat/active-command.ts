import type { ApprovalPolicy } from '../../core/agents/run-context.js';
import type { Team } from '../team.js';
import { withCommandGrants } from './command-allowed-tools.js';
import type { CommandGrant } from './command-turn.js';

/** The part of a conversation a command's turn changes: the team that answers. */
interface TurnConversation {
  team: Team;
}

/**
 * The custom command whose turn is under way (it may stop for approvals and go on): its allowed
 * tools run unasked, its model's team answers. Both end with the turn: `end` puts the session's
 * own team back and drops the grants, so the next ordinary turn asks again.
 */
export class ActiveCommand {
  private active: { conv: TurnConversation; grant: CommandGrant; previous?: Team | undefined } | undefined;

  /** The command's turn starts on `conv` (an earlier command's ends first). */
  async begin(conv: TurnConversation, grant: CommandGrant): Promise<void> {
    await this.end();
    let previous: Team | undefined;
    if (grant.team) {
      previous = conv.team;
      conv.team = grant.team;
    }
    this.active = { conv, grant, previous };
  }

  /** The policy a run of `conv` gets: the mode's, with the command's grants while its turn lasts. */
  policy(conv: TurnConversation, mode: ApprovalPolicy | undefined): ApprovalPolicy | undefined {
    const a = this.active;
    return a && a.conv === conv ? withCommandGrants(mode, a.grant.rules, conv.team.workspace) : mode;
  }

  /** The turn is over (or left): the session's team answers again and the grants are gone. */
  async end(): Promise<void> {
    const a = this.active;
    if (!a) return;
    this.active = undefined;
    const { team } = a.grant;
    if (!team) return;
    // Something replaced the command's team meanwhile (it closed it): the session's own team is not in use any more.
    if (a.conv.team === team) a.conv.team = a.previous!;
    else if (a.previous && a.conv.team !== a.previous) await a.previous.close().catch(() => {});
    await team.close().catch(() => {});
  }
}
