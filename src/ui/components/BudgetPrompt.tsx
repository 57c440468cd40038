import { Text } from 'ink';
import { useState } from 'react';
import { budgetFigure, suggestedLimit } from '../../core/agents/run-budget.js';
import { PromptFrame } from './PromptFrame.js';
import { TextInput } from './TextInput.js';

/** What the person decided at a reached budget: a new limit, or stop here. */
export type BudgetDecision = { raise: number } | { stop: true };

export interface BudgetPromptProps {
  agent?: string;
  /** The budget reached: `max_cost`, `max_model_calls`… */
  name: string;
  spent: number;
  limit: number;
  width: number;
  counter?: string;
  onDecision: (decision: BudgetDecision) => void;
}

/**
 * A run's budget is reached and it waits at a safe point: Enter raises it (to twice the old limit, or
 * the number typed), `stop` ends the run here.
 */
export function BudgetPrompt({ agent, name, spent, limit, width, counter, onDecision }: BudgetPromptProps) {
  const [problem, setProblem] = useState<string>();
  const suggested = suggestedLimit(name, limit);
  const submit = (text: string) => {
    const t = text.trim().toLowerCase().replace(/^\$/, '');
    if (t === 'stop' || t === 's' || t === 'n' || t === 'no') return onDecision({ stop: true });
    const n = t === '' ? suggested : Number(t);
    if (!Number.isFinite(n) || n <= limit) return setProblem(`give a number above ${budgetFigure(name, limit)}, or stop`);
    if (name !== 'max_cost' && !Number.isSafeInteger(n)) return setProblem('give a whole number, or stop');
    onDecision({ raise: n });
  };
  return (
    <PromptFrame agent={agent} title="budget reached" color="yellow" width={width} counter={counter}>
      <Text>
        {name}: {budgetFigure(name, spent)} spent of {budgetFigure(name, limit)}. The run waits before its next model call.
      </Text>
      <Text dimColor>
        Enter raises it to {budgetFigure(name, suggested)} · type another limit · stop ends the run here
      </Text>
      {problem ? <Text color="red">{problem}</Text> : null}
      <TextInput prompt="raise to › " promptColor="yellow" placeholder={budgetFigure(name, suggested)} onSubmit={submit} />
    </PromptFrame>
  );
}
