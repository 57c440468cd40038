import { AskUserPrompt } from '../components/AskUserPrompt.js';
import { ApprovalPrompt } from '../components/ApprovalPrompt.js';
import { PlanReviewPrompt } from '../components/PlanReviewPrompt.js';
import { BudgetPrompt } from '../components/BudgetPrompt.js';
import type { PendingInterrupt } from '../state/transcript.js';
import type { PromptAnswer } from './answers.js';
import { GuardKeys } from '../hooks/key-guard.js';

export interface InterruptPromptProps {
  interrupt: PendingInterrupt;
  counter?: string;
  width: number;
  maxArgLines?: number;
  /** A short terminal: approvals show their menu as key hints only. */
  compact?: boolean;
  onAnswer: (answer: PromptAnswer) => void;
  /** Keys are not answers until the prompt has been visible this long (default 400 ms). */
  armMs?: number;
  /** Text typed before that: it belongs to the message box. */
  onTypeAhead?: (text: string) => void;
}

/** The prompt that fits the interrupt's kind, deaf to keys typed before it could be read. */
export function InterruptPrompt({ armMs, onTypeAhead, ...props }: InterruptPromptProps) {
  return (
    <GuardKeys armMs={armMs} onTypeAhead={onTypeAhead}>
      <PromptFor {...props} />
    </GuardKeys>
  );
}

function PromptFor({ interrupt: p, counter, width, maxArgLines, compact, onAnswer }: InterruptPromptProps) {
  const { info } = p;
  switch (info.kind) {
    case 'approval':
      return (
        <ApprovalPrompt
          agent={p.agent}
          tool={info.tool ?? 'tool'}
          arguments={info.arguments}
          message={info.message}
          mayHaveRun={info.mayHaveRun === true}
          alwaysAsks={info.alwaysAsks === true}
          width={width}
          counter={counter}
          maxArgLines={maxArgLines}
          diff={info.diff}
          compact={compact}
          onDecision={(choice) => onAnswer({ kind: 'approval', choice })}
        />
      );
    case 'plan_review':
      return (
        <PlanReviewPrompt
          agent={p.agent}
          message={info.message}
          plan={info.plan ?? []}
          width={width}
          counter={counter}
          maxRows={maxArgLines}
          onDecision={(decision) => onAnswer({ kind: 'plan_review', decision })}
        />
      );
    case 'budget':
      if (info.budget) {
        const { name, spent, limit } = info.budget;
        return <BudgetPrompt agent={p.agent} name={name} spent={spent} limit={limit} width={width} counter={counter} onDecision={(decision) => onAnswer({ kind: 'budget', name, decision })} />;
      }
      break;
  }
  const extra = info.kind === 'custom' && info.data !== undefined ? `\n${JSON.stringify(info.data, null, 2)}` : '';
  return <AskUserPrompt agent={p.agent} question={`${info.message}${extra}`} width={width} counter={counter} onAnswer={(text) => onAnswer({ kind: 'input', text })} />;
}
