import { execFileSync } from 'node:child_process';
import { ADK_BIN } from './cli.js';

/** Records trust in `file` for the ADK_HOME `home` with `adk trust --yes` itself (for tests whose files use module tools, MCP, …). */
export function trustAgentsFile(home: string, file: string): void {
  execFileSync(process.execPath, [ADK_BIN, 'trust', file, '--yes'], { env: { ...process.env, ADK_HOME: home }, stdio: ['ignore', 'ignore', 'pipe'] });
}
