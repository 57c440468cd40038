import * as z from 'zod';
import type { InterruptDetails } from '../../interrupt.js';
import type { Tool } from '../tool.js';

const parameters = z.object({
  question: z.string().min(1).describe('The question for the user, in plain words'),
});

/** Stops the run for a typed answer; the run is resumed with the answer as this call's data. */
export const askUserTool: Tool<z.infer<typeof parameters>> = {
  name: 'ask_user',
  readOnly: true,
  description: 'Ask the user a question and wait for their typed answer. Use it when you need information only the user has.',
  parameters,
  execute({ question }, ctx) {
    const r = ctx.resume;
    if (r.isResumeTarget && r.hasData) {
      const answer = answerText(r.data);
      if (answer !== undefined) return answer === '' ? '(the user gave an empty answer)' : answer;
    }
    const info: InterruptDetails = { kind: 'input', message: question };
    return ctx.interrupt(info);
  },
};

/** Resume data is the answer itself or `{ answer }`; anything else asks again. */
export function answerText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (typeof data === 'number' || typeof data === 'boolean') return String(data);
  if (data && typeof data === 'object' && typeof (data as { answer?: unknown }).answer === 'string') return (data as { answer: string }).answer;
  return undefined;
}
