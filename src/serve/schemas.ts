import * as z from 'zod';

/** `POST /v1/sessions`. */
export const CreateSessionBody = z.strictObject({
  agent: z.string().min(1).optional().describe('A root agent of the agents file (default: its default agent)'),
  title: z.string().max(200).optional(),
});

/** `POST /v1/sessions/:id/messages`. */
export const MessageBody = z.strictObject({
  content: z.string().min(1).max(1_000_000).describe('What the person says'),
});

/** `POST /v1/sessions/:id/interrupts`: answers by id, or approve / reject / input for what waits. */
export const InterruptsBody = z
  .strictObject({
    targets: z.record(z.string(), z.unknown()).optional().describe('Resume data by interrupt id'),
    approve: z.array(z.string()).optional().describe('Interrupt ids to approve ([]: every pending approval and plan review)'),
    reject: z.array(z.string()).optional().describe('Interrupt ids to reject ([]: every pending approval and plan review)'),
    reason: z.string().optional().describe('Why they were rejected (told to the model)'),
    input: z.string().optional().describe('The answer to every pending question'),
    always: z.array(z.string()).optional().describe('Approval ids to approve and whose tools then run without asking for the rest of the session ([]: every pending approval)'),
  })
  .refine((b) => b.targets || b.approve || b.reject || b.always || b.input !== undefined, { message: 'give targets, approve, reject, always or input' });

/** The error body of every failed request. */
export const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), path: z.string().optional() }),
});
