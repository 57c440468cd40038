import type { Message } from '../../core/schema/message.js';
import type { ToolStatus } from './transcript.js';

/** Rejections are written by the approval gate as `The user rejected this <tool> call…`. */
const REJECTED = /^The user rejected\b/;

/** The final status of a tool call, read from its result message. */
export function toolResultStatus(message: Pick<Message, 'content' | 'isError'>): ToolStatus {
  if (REJECTED.test(message.content)) return 'rejected';
  return message.isError ? 'error' : 'done';
}

/** The tool call id of an interrupt point at `…;tool:<name>:<callId>`, if the point is a tool call. */
export function toolCallIdOfAddress(address: string): string | undefined {
  const last = address.split(';').pop() ?? '';
  if (!last.startsWith('tool:')) return undefined;
  const parts = last.split(':');
  return parts.length >= 3 ? parts.slice(2).join(':') : undefined;
}
