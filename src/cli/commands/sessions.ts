import { lockSession, type SessionListEntry, type SessionRecord } from '../../core/store/index.js';
import { packageVersion } from '../version.js';
import { sanitizeText } from '../../ui/text/sanitize.js';
import { CliError } from '../exit-codes.js';
import { leaseOptions } from '../session-access.js';
import { exitQuietlyOnEpipe } from '../signals.js';
import { openStores } from '../stores.js';
import { FileCheckpoints } from '../rewind/file-checkpoints.js';

export interface SessionsOptions {
  json?: boolean;
  /** `export`: atif, jsonl or markdown. */
  format?: string;
  /** `export`: the file to write (default: stdout). */
  output?: string;
}

/** Titles, messages and errors were written by models and tools: printed terminal-safe. (JSON escapes controls itself.) */
const out = (s: string) => void process.stdout.write(sanitizeText(s));

export async function sessionsCommand(action: string | undefined, id: string | undefined, opts: SessionsOptions): Promise<number> {
  exitQuietlyOnEpipe();
  const stores = await openStores();
  try {
    switch (action ?? 'list') {
      case 'list': {
        const list = await stores.sessions.list();
        if (opts.json) out(`${JSON.stringify(list)}\n`);
        else out(list.length ? `${list.map(formatEntry).join('\n')}\n` : 'no sessions yet: start one with `adk chat` or `adk run "…"`\n');
        return 0;
      }
      case 'show': {
        if (!id) throw new CliError('usage: adk sessions show <id>');
        const s = await stores.sessions.get(await stores.sessions.resolveId(id));
        if (!s) throw new CliError(`session ${id} does not exist`);
        if (opts.json) out(`${JSON.stringify(s)}\n`);
        else {
          out(`${s.id}  ${s.status}  ${s.rootAgent}${s.model ? ` (${s.model})` : ''}  ${s.updatedAt}\n${s.title}\n\n`);
          for (const m of s.messages as Array<{ role: string; content: string; agentName?: string; toolName?: string }>) {
            const who = m.role === 'user' ? 'you' : m.role === 'tool' ? `${m.agentName ?? ''} ⟵ ${m.toolName}` : (m.agentName ?? m.role);
            out(`[${who}] ${m.content.length > 400 ? `${m.content.slice(0, 400)}…` : m.content}\n`);
          }
          for (const p of s.pendingInterrupts) out(`\n⏸ waiting: ${p.kind} ${p.tool ?? ''} ${p.message} [${p.id}]\n`);
        }
        return 0;
      }
      case 'export': {
        if (!id) throw new CliError('usage: adk sessions export <id> [--format atif|jsonl|markdown] [--output FILE]');
        const s = await stores.sessions.get(await stores.sessions.resolveId(id));
        if (!s) throw new CliError(`session ${id} does not exist`);
        const text = await exportSession(s, opts.format ?? 'atif');
        // A file is written whole (a temp file renamed into place), byte for byte; a terminal gets it terminal-safe.
        if (opts.output) await writeWhole(opts.output, text);
        else if (process.stdout.isTTY) out(text);
        else process.stdout.write(text);
        return 0;
      }
      case 'import': {
        if (!id) throw new CliError('usage: adk sessions import <file> (a Claude Code session .jsonl or an ATIF trajectory)');
        return await importSession(stores, id, opts);
      }
      case 'delete': {
        if (!id) throw new CliError('usage: adk sessions delete <id>');
        // A session another process is running is not pulled from under it.
        // (Not read first: a corrupt record must stay deletable.)
        const full = await stores.sessions.resolveId(id);
        const lease = await lockSession(stores.kv, full, leaseOptions());
        try {
          await stores.sessions.delete(full);
          await stores.checkpoints.delete(full);
          // Its file snapshots (`/rewind`) under ADK_HOME/checkpoints go with it.
          await new FileCheckpoints().remove(full);
        } finally {
          await lease.release();
        }
        if (opts.json) out(`${JSON.stringify({ deleted: full })}\n`);
        else out(`deleted session ${full}\n`);
        return 0;
      }
      case 'share': {
        if (!id) throw new CliError('usage: adk sessions share <id>');
        // `adk serve` shows only sessions made through it; this one may be continued there from now on.
        const full = await stores.sessions.resolveId(id);
        const lease = await lockSession(stores.kv, full, leaseOptions());
        try {
          const s = await stores.sessions.get(full);
          if (!s) throw new CliError(`session ${id} does not exist`);
          await stores.sessions.save({ ...s, served: true });
        } finally {
          await lease.release();
        }
        if (opts.json) out(`${JSON.stringify({ shared: full })}\n`);
        else out(`adk serve now shows session ${full} to its clients\n`);
        return 0;
      }
      default:
        throw new CliError(`unknown sessions action "${action}": use list, show <id>, export <id>, import <file>, delete <id> or share <id>`);
    }
  } finally {
    await stores.close();
  }
}

function formatEntry(e: SessionListEntry): string {
  if (e.corrupt) return `${e.id.padEnd(10)} CORRUPT  ${e.error}`;
  const when = e.updatedAt.replace('T', ' ').slice(0, 16);
  return `${e.id.padEnd(10)} ${e.status.padEnd(11)} ${when}  ${e.rootAgent.padEnd(12)} ${e.title}`;
}

/** A session in one of the formats other tools read. */
async function exportSession(s: SessionRecord, format: string): Promise<string> {
  const { toAtif, toMarkdown } = await import('../export/atif.js');
  switch (format) {
    case 'atif':
      return `${JSON.stringify(toAtif(s, packageVersion()), null, 2)}\n`;
    case 'jsonl':
      return (s.messages as unknown[]).map((m) => `${JSON.stringify(m)}\n`).join('');
    case 'markdown':
    case 'md':
      return toMarkdown(s);
    default:
      throw new CliError(`--format ${format}: expected atif, jsonl or markdown`);
  }
}

async function writeWhole(file: string, text: string): Promise<void> {
  const { writeFile, rename } = await import('node:fs/promises');
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { flag: 'wx', mode: 0o600 });
  await rename(tmp, file);
}

/**
 * A session from another tool's file, in this folder, with this folder's team: `adk resume ID "…"`
 * continues it. What could not be carried over is listed.
 */
async function importSession(stores: Awaited<ReturnType<typeof openStores>>, file: string, opts: SessionsOptions): Promise<number> {
  const [{ readFile }, { importConversation }, { loadTeam }, { lockedNewId }] = await Promise.all([
    import('node:fs/promises'),
    import('../import/session-import.js'),
    import('../team.js'),
    import('../session-access.js'),
  ]);
  let imported;
  try {
    imported = importConversation(await readFile(file, 'utf8'));
  } catch (e) {
    throw new CliError(`${file}: ${(e as Error).message}`);
  }
  if (!imported.messages.length) throw new CliError(`${file}: no messages to import (is it a Claude Code or Codex session .jsonl, a gemini-cli session .json or an ATIF trajectory?)`);
  const team = await loadTeam({});
  try {
    const { id, lease } = await lockedNewId(stores);
    try {
      await stores.sessions.create({
        id,
        rootAgent: team.rootName,
        model: team.modelName,
        agentsFile: team.agentsFile,
        agentsHash: team.agentsHash,
        workspace: team.workspace,
        messages: imported.messages,
        status: 'completed',
      });
    } finally {
      await lease.release();
    }
    if (opts.json) out(`${JSON.stringify({ imported: id, format: imported.format, messages: imported.messages.length, unmapped: imported.unmapped })}\n`);
    else {
      out(`imported ${imported.messages.length} messages (${imported.format}${imported.model ? `, made with ${imported.model}` : ''}) into session ${id}: adk resume ${id} "…" continues it\n`);
      for (const u of imported.unmapped) out(`  not carried over: ${u}\n`);
    }
    return 0;
  } finally {
    await team.close();
  }
}
