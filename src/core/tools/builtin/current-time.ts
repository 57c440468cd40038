import * as z from 'zod';
import type { Tool } from '../tool.js';

const parameters = z.object({});

/** The `current_time` tool: the time now, in UTC (ISO 8601) and in the local time zone. */
export const currentTimeTool: Tool<z.infer<typeof parameters>> = {
  name: 'current_time',
  readOnly: true,
  description: 'Get the current date and time (UTC in ISO 8601, and the local time with its time zone).',
  parameters,
  execute() {
    return describeTime(new Date());
  },
};

export function describeTime(now: Date, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const local = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
    timeZoneName: 'longOffset',
  }).format(now);
  return `${now.toISOString()}\nlocal time: ${local}\ntime zone: ${timeZone}`;
}
