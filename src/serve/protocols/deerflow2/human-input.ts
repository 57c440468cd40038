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

/** Arguments longer than this are cut in the card, saying so (the call is whole in the thread). */
const MAX_CONTEXT = 20_000;

/**
 * What adk waits on, as DeerFlow's clarification card: an approval offers Approve / Reject (or
 * typed words, which reject the call and tell the model); a question is free text; a plan review
 * offers Start / or feedback text. The interrupt's id is the request id, so the reply names
 * exactly the interrupt it answers. DeerFlow draws `question` and `context` as markdown, so text
 * from a model or a tool goes in a fenced block with its invisible characters shown: markdown
 * could otherwise hide part of a command (a link definition, an entity, an emphasis) from the
 * person approving it, or load an image as soon as the card appears.
 */
export function clarificationRequest(i: LgInterrupt): HumanInputRequest {
  const v = i.value as { kind?: string; tool?: string; arguments?: unknown; message?: string; diff?: string; plan?: unknown };
  const base = { version: 1 as const, kind: 'human_input_request' as const, source: 'ask_clarification' as const, request_id: i.id, tool_call_id: `ask:${i.id}` };
  switch (v.kind) {
    case 'approval':
      return {
        ...base,
        clarification_type: 'approach_choice',
        question: `Allow ${codeSpan(v.tool ?? 'this tool')} to run this call? Typed words reject it and tell the agent why.`,
        context: [fenced(argumentsText(v.arguments)), v.diff ? fenced(v.diff, 'diff') : ''].filter(Boolean).join('\n\n'),
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
        question: 'Review the plan: start it, or say what to change.',
        context: v.plan === undefined ? undefined : fenced(typeof v.plan === 'string' ? v.plan : JSON.stringify(v.plan, null, 2)),
        input_mode: 'choice_with_other',
        options: [{ id: 'accept', label: 'Start', value: 'accept' }],
      };
    default:
      // The agent's own question, as DeerFlow draws its own agent's: markdown, with nothing invisible.
      return { ...base, clarification_type: 'missing_info', question: showInvisible(v.message || 'The agent needs your answer.'), input_mode: 'free_text' };
  }
}

function argumentsText(args: unknown): string {
  if (args === undefined) return '(no arguments)';
  const a = args as { command?: unknown };
  if (a && typeof a === 'object' && typeof a.command === 'string' && Object.keys(a).length === 1) return a.command;
  return JSON.stringify(args, null, 2);
}

/** Text as a fenced code block no backtick run inside can close, cut (saying so) when very long. */
export function fenced(text: string, lang = ''): string {
  const cut = text.length > MAX_CONTEXT ? `${text.slice(0, MAX_CONTEXT)}\n… (cut at ${MAX_CONTEXT} of ${text.length} characters)` : text;
  const shown = showInvisible(cut);
  const longest = Math.max(2, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${shown}\n${fence}`;
}

function codeSpan(text: string): string {
  const shown = showInvisible(text).replace(/\s+/g, ' ');
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const tick = '`'.repeat(longest + 1);
  return `${tick} ${shown} ${tick}`;
}

/** Characters that draw nothing or reorder text (zero widths, bidi controls, other format and control characters), shown as ⟨U+XXXX⟩. */
export function showInvisible(text: string): string {
  return text.replace(/[\p{Cf}\p{Co}\u2028\u2029]|(?![\n\t])\p{Cc}/gu, (ch) => `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
