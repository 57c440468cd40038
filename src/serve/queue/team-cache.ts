import type { SessionRecord } from '../../core/store/session-record.js';
import type { ServedTeam } from '../session-hub.js';

/** Teams a worker keeps between turns (most recently used first out last). */
const DEFAULT_CAPACITY = 64;

/**
 * The teams of the sessions a worker served lately, so the next turn of a session does not build
 * its team again (parse the agents file, start its tools). A session runs one turn at a time, so
 * its team is never shared by two turns; a team in use is never closed.
 */
export class TeamCache {
  private readonly teams = new Map<string, { key: string; team: Promise<ServedTeam>; users: number }>();

  constructor(
    private readonly build: (record: SessionRecord) => Promise<ServedTeam>,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /** The session's team, and the function that gives it back once the turn has ended. */
  async take(record: SessionRecord): Promise<{ team: ServedTeam; release(): void }> {
    // What the team is built from: a session whose file or agent changed gets a new one.
    const key = JSON.stringify([record.agentsFile, record.agentsHash, record.rootAgent, record.workspace, record.model]);
    let entry = this.teams.get(record.id);
    if (entry && entry.key !== key && entry.users === 0) {
      this.teams.delete(record.id);
      void close(entry.team);
      entry = undefined;
    }
    if (!entry) {
      entry = { key, team: this.build(record), users: 0 };
      const created = entry;
      created.team.catch(() => this.teams.get(record.id) === created && this.teams.delete(record.id));
    }
    // Most recently used last.
    this.teams.delete(record.id);
    this.teams.set(record.id, entry);
    entry.users++;
    this.evict();
    const held = entry;
    try {
      return { team: await held.team, release: () => void held.users-- };
    } catch (e) {
      held.users--;
      throw e;
    }
  }

  /** Closes every team (their MCP servers, background jobs). */
  async close(): Promise<void> {
    const all = [...this.teams.values()];
    this.teams.clear();
    await Promise.all(all.map((e) => close(e.team)));
  }

  private evict(): void {
    for (const [id, entry] of this.teams) {
      if (this.teams.size <= this.capacity) return;
      if (entry.users > 0) continue;
      this.teams.delete(id);
      void close(entry.team);
    }
  }
}

async function close(team: Promise<ServedTeam>): Promise<void> {
  await (await team.catch(() => undefined))?.close?.();
}
