import * as z from 'zod';
import { FILE_TYPES, IMAGE_TYPES } from '../core/schema/content-part.js';

/** `POST /v1/sessions`. */
export const CreateSessionBody = z.strictObject({
  agent: z.string().min(1).optional().describe('A root agent of the agents file (default: its default agent)'),
  title: z.string().max(200).optional(),
  policy: z
    .strictObject({
      permission_mode: z.string().optional().describe('default, accept-edits (file edits run unasked) or plan (read-only tools only)'),
      allow: z.array(z.string()).max(100).optional().describe('Calls that run unasked: shell(npm test), write_file(docs/*)'),
      deny: z.array(z.string()).max(100).optional().describe('Calls that never run; the model is told which rule refused them'),
      on_approval: z.string().optional().describe('ask (the turn waits, the default), deny (answer "no" with a reason and go on) or fail (the turn ends incomplete, reason approval_needed)'),
    })
    .optional()
    .describe("How the session's turns run when nobody answers approvals (kept with the session; queued turns on adk worker keep it too)"),
});

/** An image or PDF of a message, base64 in the JSON body (every POST is JSON: see app.ts). */
export const MessagePart = z.strictObject({
  type: z.enum(['image', 'file']).describe('`image` (PNG, JPEG, WebP, GIF; 20 MB) or `file` (PDF; 32 MB)'),
  mimeType: z.enum([...IMAGE_TYPES, ...FILE_TYPES]).optional().describe('Checked against the bytes when given'),
  name: z.string().max(255).optional().describe('The file name (shown, and a PDF\'s title for the model)'),
  data: z.string().min(1).describe('The bytes, base64 (a `data:` URL prefix is accepted)'),
});

/** `POST /v1/sessions/:id/messages`. */
export const MessageBody = z
  .strictObject({
    content: z.string().max(1_000_000).describe('What the person says'),
    parts: z.array(MessagePart).max(20).optional().describe('Images and PDFs sent with the text; stored once per session by their SHA-256'),
  })
  .refine((b) => b.content.length > 0 || !!b.parts?.length, { message: 'content is empty and there are no parts', path: ['content'] });

/**
 * `POST /v1/sessions/:id/interrupts`: answers by id, or approve / reject / input for what waits.
 * A turn cancelled at a safe point waits on nothing: `{}` continues it.
 */
export const InterruptsBody = z.strictObject({
  targets: z.record(z.string(), z.unknown()).optional().describe('Resume data by interrupt id'),
  approve: z.array(z.string()).optional().describe('Interrupt ids to approve ([]: every pending approval and plan review)'),
  reject: z.array(z.string()).optional().describe('Interrupt ids to reject ([]: every pending approval and plan review)'),
  reason: z.string().optional().describe('Why they were rejected (told to the model)'),
  input: z.string().optional().describe('The answer to every pending question'),
  always: z.array(z.string()).optional().describe('Approval ids to approve and whose tools then run without asking for the rest of the session ([]: every pending approval)'),
  raise: z.record(z.string(), z.number()).optional().describe('New limits for the budgets the run stopped at: {"max_cost": 5, "max_model_calls": 40}'),
});

/** The body answers something (a cancelled turn's `{}` answers nothing). */
export const answersAnything = (b: z.infer<typeof InterruptsBody>) => !!(b.targets || b.approve || b.reject || b.always || b.raise || b.input !== undefined);

/** The error body of every failed request. */
export const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), path: z.string().optional() }),
});

export * from './event-schemas.js';
export * from './response-schemas.js';
