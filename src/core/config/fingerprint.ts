import { createHash } from 'node:crypto';
import { codeManifest, manifestDigest, type CodeManifest } from './code-graph.js';
import type { TeamConfig } from './types.js';

/** What trust records and a session is bound to: one hash, and the code manifest it stands for. */
export interface TeamFingerprint {
  /** SHA-256 of the agents file's bytes and of the code it runs (its CodeManifest). */
  hash: string;
  code: CodeManifest;
}

/**
 * What trust and a session's binding compare: the agents file's bytes plus everything it runs (see
 * CodeManifest), so a model that rewrites `./tools/lib/x.js` (write_file does not ask, and a
 * sandboxed command may write the workspace) changes the fingerprint as rewriting agents.yaml would.
 * A file that runs no code of its own hashes to the SHA-256 of its bytes alone.
 */
export async function teamFingerprint(text: string, config: TeamConfig): Promise<TeamFingerprint> {
  const code = await codeManifest(config);
  const h = createHash('sha256').update(text);
  if (hasCode(code)) h.update(`\0code\0${manifestDigest(code)}`);
  return { hash: h.digest('hex'), code };
}

/** Whether the agents file runs code of its own (module tools, MCP scripts, their imports). */
export const hasCode = (m: CodeManifest): boolean => Object.keys(m.files).length > 0 || Object.keys(m.packages).length > 0;
