import type { ApprovalPolicy } from '../../core/agents/run-context.js';
import type { ChatUi, PlanModeDecision } from '../../ui/index.js';
import { nextPermissionMode, permissionModeLabel, permissionModePolicy, type PermissionMode, type StartingMode } from './permission-mode.js';

/**
 * The REPL's current permission mode (held by its host, not saved with the session) and, after a
 * turn in plan mode, the plan waiting for the person's review.
 */
export class PermissionModes {
  mode: PermissionMode;
  readonly bypassAllowed: boolean;
  /** The answer a plan-mode turn ended with: shown in the plan review until decided. */
  planToReview?: string | undefined;

  constructor(start: StartingMode = { mode: 'default', bypassAllowed: false }) {
    this.mode = start.mode;
    this.bypassAllowed = start.bypassAllowed;
  }

  /** Shift-Tab. */
  cycle(): PermissionMode {
    this.mode = nextPermissionMode(this.mode, this.bypassAllowed);
    return this.mode;
  }

  /** What the Conversation's policy gets from the mode (read at the start of every run). */
  get policy(): ApprovalPolicy | undefined {
    return permissionModePolicy(this.mode);
  }

  get label(): string | undefined {
    return permissionModeLabel(this.mode);
  }

  /** A run ended: one that ran in plan mode throughout and finished has its answer reviewed as the plan. */
  turnEnded(startedIn: PermissionMode, status: string, output: string): void {
    if (startedIn === 'plan' && this.mode === 'plan' && status === 'completed' && output.trim()) this.planToReview = output.trim();
  }

  /**
   * The person's review of the plan: what to send next (undefined: nothing, keep planning).
   * Accepting leaves plan mode; "accept and clear" starts the model afresh with the plan as its first message.
   */
  async decide(decision: PlanModeDecision, clearContext: (ui: ChatUi) => Promise<void>, ui: ChatUi): Promise<string | undefined> {
    const plan = this.planToReview ?? '';
    this.planToReview = undefined;
    switch (decision.kind) {
      case 'accept':
        this.mode = 'default';
        return 'The plan is accepted. Carry it out now.';
      case 'accept-clear':
        this.mode = 'default';
        await clearContext(ui);
        return `Carry out this plan:\n\n${plan}`;
      case 'feedback':
        return decision.feedback;
      default:
        return undefined;
    }
  }
}
