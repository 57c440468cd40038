// Temporary stand-in for `adk mcp serve` until main.ts registers the command: parses the same
// options and calls mcpServeCommand from the tsc build (dist/), with the CLI's error line and exit code.
import { parseArgs } from 'node:util';

await import('../../dist/cli/zod-setup.js');
const { mcpServeCommand } = await import('../../dist/cli/commands/mcp-serve.js');
const { errorLine, exitCodeFor } = await import('../../dist/cli/exit-codes.js');

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    agents: { type: 'string' },
    agent: { type: 'string', multiple: true },
    http: { type: 'string' },
    host: { type: 'string' },
    socket: { type: 'string' },
    'no-token': { type: 'boolean' },
    model: { type: 'string' },
  },
});
const { 'no-token': noToken, ...rest } = values;
try {
  process.exitCode = await mcpServeCommand({ ...rest, noToken });
} catch (e) {
  process.stderr.write(`adk: ${errorLine(e)}\n`);
  process.exitCode = exitCodeFor(e);
}
