import * as z from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { redactSecrets } from '../../core/store/redact.js';

/** What a team tool takes: the task, and the session to continue (the sessionId of an earlier result). */
export const TeamToolInput = z.object({
  task: z.string().min(1).describe('What the team should do, in words (a new message of the conversation).'),
  session: z.string().min(1).optional().describe('The sessionId of an earlier result: the task continues that conversation.'),
});
export type TeamToolInput = z.infer<typeof TeamToolInput>;

/** How a call ended, as adk's `done` line says it. */
export const CALL_STATUSES = ['completed', 'interrupted', 'cancelled', 'error', 'incomplete'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** What a team tool returns as structured content (its outputSchema). */
export const TeamToolOutput = z.object({
  answer: z.string().describe('The team’s answer; when it waits for a person, what it waits for and how to answer.'),
  sessionId: z.string().describe('The adk session of this call: pass it as `session` to continue the conversation.'),
  status: z.enum(CALL_STATUSES).describe('completed, or interrupted (waiting for a person), cancelled, error, incomplete (cut off).'),
  resume: z.string().optional().describe('When interrupted: the command that answers it in a terminal (adk resume <id> --approve).'),
});
export type TeamToolOutput = z.infer<typeof TeamToolOutput>;

/** The call's result: the answer as text and as structured content, with no secret in either. */
export function callResult(out: TeamToolOutput, secrets: readonly string[]): CallToolResult {
  const safe = redactSecrets(out, secrets);
  return {
    content: [{ type: 'text', text: safe.answer }],
    structuredContent: safe,
    // A team that waits for a person has not failed: the client shows the answer and the command.
    isError: out.status === 'error',
  };
}
