import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TeamConfig } from './types.js';

/**
 * SHA-256 of what an agents file runs: its own bytes, plus the bytes of every module tool or middleware it
 * imports and of every file inside its folder that an MCP server command names (`node ./server.js`).
 * Trust and a session's binding use this, so a model that rewrites `./tools/x.js` (write_file
 * does not ask) changes the fingerprint just as rewriting agents.yaml would.
 */
export function teamFingerprint(text: string, config: TeamConfig): string {
  const h = createHash('sha256').update(text);
  const files = new Set<string>();
  for (const a of config.agents.values()) {
    const refs = a.type === 'chat' || a.type === 'deep' ? a.tools : a.type === 'plan_execute' ? a.executor.tools : [];
    for (const r of refs) if (r.kind === 'module') files.add(r.resolvedPath);
    for (const m of a.type === 'chat' || a.type === 'deep' ? (a.middlewares ?? []) : []) if (m.kind === 'module') files.add(m.resolvedPath);
  }
  for (const s of config.mcpServers.values()) {
    for (const word of [s.command, ...s.args]) {
      for (const base of new Set([config.dir, s.cwd ?? config.dir])) {
        const p = path.resolve(base, word);
        if (isInside(config.dir, p) && isFile(p)) files.add(p);
      }
    }
  }
  for (const f of [...files].sort()) {
    h.update(`\0${path.relative(config.dir, f)}\0`);
    try {
      h.update(readFileSync(f));
    } catch {
      h.update('(missing)');
    }
  }
  return h.digest('hex');
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
