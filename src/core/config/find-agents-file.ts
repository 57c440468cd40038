import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** The agents file chosen by findAgentsFile and where the choice came from (`--agents`, the working folder, or the bundled default). */
export interface AgentsFileLocation {
  path: string;
  source: 'flag' | 'cwd' | 'bundled';
}

/**
 * Which agents file to use: `--agents` (relative to cwd; not checked here, loading reports a
 * missing file), else `./agents.yaml`, else the bundled one.
 */
export function findAgentsFile(cwd: string, explicit: string | undefined, bundledPath: string): AgentsFileLocation {
  const bundled: AgentsFileLocation = { path: bundledPath, source: 'bundled' };
  if (explicit !== undefined && explicit !== '') {
    const p = path.resolve(cwd, explicit);
    return sameFile(p, bundledPath) ? bundled : { path: p, source: 'flag' };
  }
  const local = path.join(cwd, 'agents.yaml');
  // Inside adk's own checkout ./agents.yaml is the bundled file: treat it as such.
  if (existsSync(local) && statSync(local).isFile() && !sameFile(local, bundledPath)) return { path: local, source: 'cwd' };
  return bundled;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
