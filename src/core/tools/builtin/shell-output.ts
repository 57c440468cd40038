import * as z from 'zod';
import type { Tool } from '../tool.js';
import type { ShellJobs } from './shell-jobs.js';

const parameters = z.object({
  job: z.string().min(1).describe('The job id the shell result named, e.g. "bg1"'),
  stop: z.boolean().optional().describe('Stop the job (kill its processes) before reading'),
});

/**
 * `shell_output`: reads a background job (a shell command the person moved there): whether it runs
 * or how it exited, and the output since the last read. Offered with `shell`; it starts nothing.
 */
export function shellOutputTool(jobs: ShellJobs): Tool<z.infer<typeof parameters>> {
  return {
    name: 'shell_output',
    readOnly: true,
    description: 'Read a background shell job: its status (running, or its exit code) and the output since the last read. Set stop to end it.',
    parameters,
    async execute({ job, stop }) {
      const r = await jobs.read(job, stop ?? false);
      if (!r) {
        const known = jobs.list().map((j) => j.id);
        return { content: `no background job '${job}' (${known.length ? `jobs: ${known.join(', ')}` : 'there are none'})`, isError: true };
      }
      return `job ${job}: ${r.status}\n${r.output || '(no new output)'}`;
    },
  };
}
