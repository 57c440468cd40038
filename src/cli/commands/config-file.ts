import { sanitizeText } from '../../ui/text/sanitize.js';
import { BUNDLED_AGENTS_FILE } from '../team.js';

// A cloned repository's agents.yaml is read here untrusted: its names and descriptions print terminal-safe.
const out = (s: string) => void process.stdout.write(sanitizeText(s));
const err = (s: string) => void process.stderr.write(sanitizeText(s));

/** `adk validate [file]`: 0 when valid, 2 with every problem as file:line:col otherwise. */
export async function validateCommand(file: string | undefined): Promise<number> {
  const { findAgentsFile, validateConfig, formatProblems } = await import('../../core/config/index.js');
  const location = findAgentsFile(process.cwd(), file, BUNDLED_AGENTS_FILE);
  const result = validateConfig({ file: location.path });
  if (result.ok) {
    out(`${location.path}: ok (${result.config!.agents.size} agents)\n`);
    return 0;
  }
  err(`${formatProblems(result.problems)}\n`);
  err(`${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${location.path}\n`);
  return 2;
}

/** `adk agents`: the agent tree with types, tools and models. */
export async function agentsCommand(opts: { agents?: string }): Promise<number> {
  const { findAgentsFile, validateConfig, formatProblems, agentForest, renderAgentTree } = await import('../../core/config/index.js');
  const location = findAgentsFile(process.cwd(), opts.agents, BUNDLED_AGENTS_FILE);
  const result = validateConfig({ file: location.path });
  if (!result.ok || !result.config) {
    err(`${formatProblems(result.problems)}\n`);
    return 2;
  }
  out(`${location.path}${location.source === 'bundled' ? ' (bundled)' : ''}\n\n${renderAgentTree(agentForest(result.config))}\n`);
  return 0;
}
