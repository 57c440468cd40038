import type { ChatUi } from '../../ui/index.js';
import type { AdkStores, SessionSummary } from '../../core/store/index.js';
import type { ChatHost } from './chat-host.js';
import { formatRule } from '../../core/agents/allow-rules.js';

/** The REPL's commands that need the runtime or the store; the app handles the rest itself. */
export async function handleCommand(host: ChatHost, stores: AdkStores, name: string, args: string, ui: ChatUi): Promise<boolean> {
  switch (name) {
    case '/agents': {
      ui.markdown(`\`\`\`text\n${host.team.tree}\n\`\`\``, 'agents');
      const others = host.team.roots.filter((r) => r.name !== host.team.rootName);
      const name = args.trim() || (others.length && ui.pick ? await ui.pick('Switch to which team? (a new session)', host.team.roots.map((r) => ({ value: r.name, label: r.name, detail: `${r.description}${r.name === host.team.rootName ? ' · current' : ''}` }))) : undefined);
      if (name && name !== host.team.rootName) await host.switchTeam(name, ui);
      return true;
    }
    case '/tools': {
      const tools = host.team.toolNames.map((t) => `- \`${t}\``).join('\n') || 'This team has no tools.';
      const rules = host.team.allowRules.map((r) => `- \`${formatRule(r)}\` (${r.source ?? 'agents.yaml'})`);
      const grants = host.conv.grants.map((t) => `- \`${t}\` (always allowed in this session)`);
      const allowed = [...rules, ...grants];
      ui.markdown(`${tools}\n\n**Runs without asking:**\n${allowed.join('\n') || '- nothing: every call that needs approval asks'}`, 'tools');
      return true;
    }
    case '/permissions': {
      const { permissionsCommand } = await import('./permissions-command.js');
      await permissionsCommand(host.team, ui);
      return true;
    }
    case '/model': {
      if (args.trim()) {
        await host.switchModel(args.trim(), ui);
        return true;
      }
      ui.info(`Model: ${host.team.modelName}. Switch with /model <name>, or pick one from the list.`);
      const picked = await showModels(host, ui);
      if (picked && picked !== host.team.modelName) await host.switchModel(picked, ui);
      return true;
    }
    case '/sessions': {
      const list = await stores.sessions.list();
      const rows = list.slice(0, 20).map((s) => (s.corrupt ? `- \`${s.id}\` corrupt: ${s.error}` : `- \`${s.id}\` ${s.status} · ${s.updatedAt.slice(0, 16).replace('T', ' ')} · ${s.title || '(untitled)'}`));
      ui.markdown(rows.join('\n') || 'No saved sessions yet.', 'sessions');
      return true;
    }
    case '/mcp':
      await mcpCommand(host, args.trim(), ui);
      return true;
    case '#':
    case '/memory': {
      const { memoryCommand } = await import('./memory-command.js');
      await memoryCommand(host, name === '#' ? args : undefined, ui);
      return true;
    }
    case '/hooks': {
      const { hooksText } = await import('./hooks-command.js');
      ui.markdown(hooksText(host.team), 'hooks');
      return true;
    }
    case '/clear':
      await host.clearContext(ui);
      return true;
    case '/init': {
      const { initAgentsMd } = await import('../init-agents-md.js');
      const r = await initAgentsMd(host.team.workspace).catch((e: unknown) => e as Error);
      if (r instanceof Error) ui.error(`Could not write AGENTS.md: ${r.message}`);
      else if (!r.created) ui.info(`${r.file} already exists; it was left as it is.`, 'warning');
      else ui.markdown(`Wrote \`${r.file}\`; every agent reads it from the next run on. Edit it to taste:\n\n\`\`\`markdown\n${r.text}\`\`\``, 'init');
      return true;
    }
    case '/compact':
      await host.compactContext(args.trim(), ui);
      return true;
    case '/goal': {
      const { goalCommand } = await import('./goal-command.js');
      await goalCommand(host, args, ui);
      return true;
    }
    case '/new':
      await host.newSession(ui);
      return true;
    case '/resume': {
      const id = args.trim() || (await pickSession(stores, host.conv.id, ui));
      if (id) await host.openSession(id, ui);
      return true;
    }
    case '/rewind': {
      const { rewindCommand } = await import('../rewind/rewind-command.js');
      await rewindCommand(host, ui);
      return true;
    }
    case '/fork': {
      const { forkCommand } = await import('../rewind/rewind-command.js');
      await forkCommand(host, ui);
      return true;
    }
    default:
      return false;
  }
}

/** `/resume` alone: the saved sessions, newest first, to pick one with ↑/↓ (title, age, status, first prompt). */
async function pickSession(stores: AdkStores, current: string, ui: ChatUi): Promise<string | undefined> {
  const list = (await stores.sessions.list()).filter((s): s is SessionSummary => !s.corrupt && s.id !== current)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .slice(0, 50);
  if (!list.length) {
    ui.info('No other saved sessions.', 'muted');
    return undefined;
  }
  if (!ui.pick) {
    ui.error('Usage: /resume <session id>. /sessions lists them.');
    return undefined;
  }
  return ui.pick('Resume which session?', sessionPickerItems(list), { filter: true });
}

/** Sessions as a picker's rows: the title (its first message), then age, status and id (typing filters on all of them). */
export function sessionPickerItems(list: readonly SessionSummary[]): Array<{ value: string; label: string; detail: string }> {
  return list.map((s) => ({ value: s.id, label: s.title || '(untitled)', detail: `${age(s.updatedAt)} · ${s.status} · ${s.id.slice(0, 8)}` }));
}

function age(iso: string): string {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** What the team's endpoints offer: a list to pick from with ↑/↓ (or `/model <name>` and Tab); returns the pick. */
async function showModels(host: ChatHost, ui: ChatUi): Promise<string | undefined> {
  const { listTeamModels } = await import('../commands/models.js');
  const listings = await listTeamModels(host.team.modelConfigs, process.env, AbortSignal.timeout(15_000));
  const rows = listings.map((l) =>
    l.error
      ? `**${l.entry}** (${l.provider}): could not list models: ${l.error}`
      : `**${l.entry}** (${l.provider}):\n${(l.models ?? []).slice(0, 50).map((m) => `- \`${m}\`${m === host.team.modelName ? ' (current)' : ''}`).join('\n') || '- (none listed)'}`,
  );
  ui.markdown(rows.join('\n\n') || 'No model endpoints in this team.', 'models');
  const offered = listings.flatMap((l) => (l.models ?? []).map((m) => ({ value: m, description: `${l.entry} (${l.provider})` })));
  const unique = [...new Map(offered.map((o) => [o.value, o])).values()];
  ui.choices('/model', unique);
  if (!unique.length) return undefined;
  if (!ui.pick) {
    ui.info('Type /model and a space, then Tab through the list to pick one.', 'muted');
    return undefined;
  }
  return ui.pick('Switch to which model?', unique.map((o) => ({ value: o.value, label: o.value, detail: `${o.description}${o.value === host.team.modelName ? ' · current' : ''}` })));
}

/** `/mcp`: each server's state and tools (starting it to tell); `/mcp login NAME` logs in to a remote one. */
async function mcpCommand(host: ChatHost, args: string, ui: ChatUi): Promise<void> {
  const pool = host.team.mcp;
  const [verb, name] = args.split(/\s+/);
  if (verb === 'login') {
    const url = name ? pool.servers[name]?.url : undefined;
    if (!name || !url) return ui.error(`Usage: /mcp login NAME, for a remote server (${pool.serverNames().filter((n) => pool.servers[n]?.url).join(', ') || 'there are none'})`);
    const { mcpLogin } = await import('../../core/tools/mcp-oauth/index.js');
    await mcpLogin(name, url, { onAuthorizationUrl: (u) => ui.info(`Log in to ${name} in your browser (it should open). If it does not: ${u.href}`) });
    await pool.reconnect(name);
    ui.info(`Logged in to ${name}.`, 'success');
    return;
  }
  if (!pool.serverNames().length) return ui.info('This team has no MCP servers. Add one: adk mcp add NAME URL (or -- COMMAND …), then a new session.', 'muted');
  const rows: string[] = [];
  for (const server of pool.serverNames()) {
    const tools = await pool.toolsFor(server).catch((e: unknown) => e as Error);
    const where = pool.servers[server]?.url ?? [pool.servers[server]?.command, ...(pool.servers[server]?.args ?? [])].join(' ');
    if (tools instanceof Error) rows.push(`- **${server}** ✗ ${tools.message}${/adk mcp login/.test(tools.message) ? ` (or /mcp login ${server})` : ''}\n  \`${where}\``);
    else {
      rows.push(`- **${server}** ✓ ${tools.length} tools: ${tools.map((t) => `\`${t.name}\``).join(', ')}\n  \`${where}\``);
      // prefix: false, but another tool has the name: it kept its prefix (no tool ever shadows another).
      for (const note of pool.renamed(server)) rows.push(`  - ${note}`);
    }
  }
  ui.markdown(`${rows.join('\n')}\n\nResources: \`@server:uri\` in a message; prompts: \`/server:prompt args\`.`, 'mcp');
}
