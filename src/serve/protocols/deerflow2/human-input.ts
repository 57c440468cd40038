import type { LgInterrupt } from '../langgraph/interrupts.js';

/** DeerFlow 2's `human_input_request` (frontend/src/core/messages/human-input.ts), version 1. */
export interface HumanInputRequest {
  version: 1;
  kind: 'human_input_request';
  source: 'ask_clarification';
  request_id: string;
  tool_call_id?: string | undefined;
  clarification_type: string;
  question: string;
  context?: string | null | undefined;
  input_mode: 'free_text' | 'single_choice' | 'choice_with_other';
  options?: Array<{ id: string; label: string; value: string }> | undefined;
}

/** Arguments longer than this are cut in the card (the whole call is in the thread's messages). */
const MAX_CONTEXT = 4000;

/**
 * What adk waits on, as DeerFlow's clarification card: an approval offers Approve / Reject (or
 * a typed instruction, which rejects the call and tells the model); a question is free text; a
 * plan review offers Start / or feedback text. The interrupt's id is the request id, so the
 * reply names exactly the interrupt it answers.
 */
export function clarificationRequest(i: LgInterrupt): HumanInputRequest {
  const v = i.value as { kind?: string; tool?: string; arguments?: unknown; message?: string; diff?: string; plan?: unknown };
  const base = { version: 1 as const, kind: 'human_input_request' as const, source: 'ask_clarification' as const, request_id: i.id, tool_call_id: `ask:${i.id}` };
  switch (v.kind) {
    case 'approval':
      return {
        ...base,
        clarification_type: 'approach_choice',
        question: v.message || `Allow ${v.tool ?? 'this tool'} to run?`,
        context: cut(v.diff ?? argumentsText(v.arguments)),
        input_mode: 'choice_with_other',
        options: [
          { id: 'approve', label: 'Approve', value: 'approve' },
          { id: 'reject', label: 'Reject', value: 'reject' },
        ],
      };
    case 'plan_review':
      return {
        ...base,
        clarification_type: 'suggestion',
        question: v.message || 'Review the plan: start, or say what to change.',
        context: cut(typeof v.plan === 'string' ? v.plan : v.plan ? JSON.stringify(v.plan, null, 2) : undefined),
        input_mode: 'choice_with_other',
        options: [{ id: 'accept', label: 'Start', value: 'accept' }],
      };
    default:
      return { ...base, clarification_type: 'missing_info', question: v.message || 'The agent needs your answer.', input_mode: 'free_text' };
  }
}

function argumentsText(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  const a = args as { command?: unknown };
  if (a && typeof a === 'object' && typeof a.command === 'string') return a.command;
  return JSON.stringify(args, null, 2);
}

function cut(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  return text.length > MAX_CONTEXT ? `${text.slice(0, MAX_CONTEXT)}\n…` : text;
}
