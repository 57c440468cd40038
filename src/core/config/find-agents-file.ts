import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export interface AgentsFileLocation {
  path: string;
  source: 'flag' | 'cwd' | 'bundled';
}

/**
 * Which agents file to use: `--agents` (relative to cwd; not checked here, loading reports a
 * missing file), else `./agents.yaml`, else the bundled one.
 */
export function findAgentsFile(cwd: string, explicit: string | undefined, bundledPath: string): AgentsFileLocation {
  if (explicit !== undefined && explicit !== '') return { path: path.resolve(cwd, explicit), source: 'flag' };
  const local = path.join(cwd, 'agents.yaml');
  if (existsSync(local) && statSync(local).isFile()) return { path: local, source: 'cwd' };
  return { path: bundledPath, source: 'bundled' };
}
