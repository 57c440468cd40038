import { argRows, diffRows } from '../components/ApprovalPrompt.js';
import { planRows } from '../components/PlanReviewPrompt.js';
import { approvalMenuRows } from '../components/approval-menu.js';
import type { PendingInterrupt } from '../state/transcript.js';
import { wrappedRows } from '../text/width.js';

/** Argument lines an approval shows on a terminal of `rows` rows (it must fit with room to spare). */
export function argLinesFor(rows: number): number {
  // 16 rows for the frame, the status line and the message; the approval menu's list takes its rows more.
  return Math.max(1, Math.min(12, rows - 16 - approvalMenuRows(rows)));
}

/**
 * A generous guess of the rows a prompt takes. The bottom area is measured after each frame; the
 * guess covers the frame in which a prompt first appears, so the screen never overflows (Ink would
 * clear the terminal).
 */
export function estimatePromptRows(p: PendingInterrupt, width: number, rows: number): number {
  const text = (s: string | undefined) => (s ? wrappedRows(s, Math.max(10, width - 4)) : 0);
  const frame = 2 + 1; // border and title
  switch (p.info.kind) {
    case 'approval':
      return frame + text(p.info.message) + 2 + Math.min((p.info.diff ? diffRows(p.info.diff, width) : argRows(p.info.arguments, width)).length + 1, argLinesFor(rows) + 1) + 2 + approvalMenuRows(rows);
    case 'plan_review':
      return frame + text(p.info.message) + 2 + Math.min(planRows(p.info.plan ?? [], width).length, argLinesFor(rows) + 1) + 2;
    case 'budget':
      // The figures line, the hint line, a problem line and the field.
      return frame + text(`${p.info.budget?.name ?? 'max_model_calls'}: 000000 spent of 000000. The run waits before its next model call.`) + text('Enter raises it to 000000 · type another limit · stop ends the run here') + 2;
    default:
      return frame + text(p.info.message) + 1 + (p.info.data === undefined ? 0 : text(JSON.stringify(p.info.data, null, 2)));
  }
}
