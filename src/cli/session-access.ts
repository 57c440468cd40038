import { realPathOrSelf } from './paths.js';
import { lockSession, newSessionId, type AdkStores, type SessionLease, type SessionRecord } from '../core/store/index.js';
import { positiveMs } from '../core/models/from-env.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { TeamOptions } from './team.js';

/** The lease options from the environment (ADK_SESSION_LEASE_MS, for tests and slow stores). */
export function leaseOptions(env: NodeJS.ProcessEnv = process.env): { ttlMs?: number } {
  const ttlMs = positiveMs(env.ADK_SESSION_LEASE_MS);
  return ttlMs ? { ttlMs } : {};
}

/** Takes the session's lease, then reads it: what is read is what this process alone will change. */
export async function lockedSession(stores: AdkStores, idOrPrefix: string): Promise<{ record: SessionRecord; lease: SessionLease }> {
  const id = await stores.sessions.resolveId(idOrPrefix);
  const lease = await lockSession(stores.kv, id, leaseOptions());
  try {
    const record = await stores.sessions.get(id, { from: 'context' });
    if (!record) throw new CliError(`session ${idOrPrefix} does not exist`);
    return { record, lease };
  } catch (e) {
    await lease.release();
    throw e;
  }
}

/** A new session id, already leased. */
export async function lockedNewId(stores: AdkStores): Promise<{ id: string; lease: SessionLease }> {
  const id = newSessionId();
  return { id, lease: await lockSession(stores.kv, id, leaseOptions()) };
}

/**
 * How to rebuild a session's team: the file it started with (the bundled one when it recorded
 * none, never whatever ./agents.yaml now is), in its own workspace, refused if the file changed.
 */
export function sessionTeamOptions(record: SessionRecord, overrides: { model?: string; agentsFile?: string } = {}): TeamOptions {
  if (overrides.agentsFile && realPathOrSelf(overrides.agentsFile) !== record.agentsFile) {
    throw new CliError(`session ${record.id} runs on ${record.agentsFile ?? 'the bundled agents.yaml'}; start a new session to use ${overrides.agentsFile}`, ExitCode.usage);
  }
  return {
    model: overrides.model ?? sessionModel(record.model),
    agentsFile: record.agentsFile,
    bundled: !record.agentsFile,
    agentName: record.rootAgent,
    cwd: record.workspace ?? process.cwd(),
    expectHash: record.agentsHash,
  };
}

/**
 * The `--model` to rebuild a saved session's team with: its stored model name when the team ran on
 * one model; a team of several models (stored as "a, b") is rebuilt from its agents file.
 */
export function sessionModel(stored: string | undefined): string | undefined {
  return stored && !stored.includes(', ') ? stored : undefined;
}

