import { AskUserPrompt } from '../components/AskUserPrompt.js';
import { ApprovalPrompt } from '../components/ApprovalPrompt.js';
import { PlanReviewPrompt } from '../components/PlanReviewPrompt.js';
import type { PendingInterrupt } from '../state/transcript.js';
import type { PromptAnswer } from './answers.js';

export interface InterruptPromptProps {
  interrupt: PendingInterrupt;
  counter?: string;
  width: number;
  maxArgLines?: number;
  onAnswer: (answer: PromptAnswer) => void;
}

/** The prompt that fits the interrupt's kind. */
export function InterruptPrompt({ interrupt: p, counter, width, maxArgLines, onAnswer }: InterruptPromptProps) {
  const { info } = p;
  switch (info.kind) {
    case 'approval':
      return (
        <ApprovalPrompt
          agent={p.agent}
          tool={info.tool ?? 'tool'}
          arguments={info.arguments}
          message={info.message}
          width={width}
          counter={counter}
          maxArgLines={maxArgLines}
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
          onDecision={(decision) => onAnswer({ kind: 'plan_review', decision })}
        />
      );
    default: {
      const extra = info.kind === 'custom' && info.data !== undefined ? `\n${JSON.stringify(info.data, null, 2)}` : '';
      return <AskUserPrompt agent={p.agent} question={`${info.message}${extra}`} width={width} counter={counter} onAnswer={(text) => onAnswer({ kind: 'input', text })} />;
    }
  }
}
