import { MentionIndex } from './mention-index.js';
import type { Team } from '../team.js';

/**
 * What the live `@` picker searches: the workspace's paths and the team's MCP resources, ranked
 * like fzf. One index per team (a `/model` or `/agents` switch brings another team, maybe other MCP
 * servers); listeners hear when the index grew (MCP resources arrive after the first keys).
 */
export class MentionPicker {
  private current: { team: Team; index: MentionIndex } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly team: () => Team) {}

  search(query: string): string[] {
    const team = this.team();
    if (this.current?.team !== team) {
      const index = new MentionIndex(team.workspace, team.mcp);
      index.onChange(() => {
        if (this.current?.index === index) for (const l of this.listeners) l();
      });
      this.current = { team, index };
    }
    return this.current.index.search(query);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
