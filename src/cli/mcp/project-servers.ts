import { readFileSync, writeFileSync } from 'node:fs';
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { CliError, ExitCode } from '../exit-codes.js';
import { TrustStore } from '../trust.js';
import type { McpServerEntry } from './server-entry.js';

/** The agents file's own hash and whether this person trusts it (so an edit of theirs keeps it trusted). */
async function trustState(file: string, text: string, env: NodeJS.ProcessEnv): Promise<{ hash: string; powers: number } | undefined> {
  const { validateConfig, teamFingerprint, configPowers } = await import('../../core/config/index.js');
  const r = validateConfig({ text, file }, { env });
  if (!r.ok || !r.config) return undefined;
  return { hash: (await teamFingerprint(text, r.config)).hash, powers: configPowers(r.config, env).length };
}

/**
 * Edits agents.yaml in place (comments and layout kept): adds or removes one `mcp_servers:` entry and
 * the `{ mcp: NAME }` tool reference of the file's default agent. A file the person trusted (or one
 * that needed no trust) stays trusted: this edit is theirs; a file never reviewed stays unreviewed.
 */
export async function editProjectServers(file: string, edit: (doc: Document) => void, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const before = readFileSync(file, 'utf8');
  const doc = parseDocument(before);
  if (doc.errors.length) throw new CliError(`${file}: ${doc.errors[0]!.message}; fix it first`, ExitCode.usage);
  edit(doc);
  const after = doc.toString();
  const trust = new TrustStore();
  const was = await trustState(file, before, env);
  const wasTrusted = !!was && (was.powers === 0 || trust.isTrusted(file, was.hash));
  writeFileSync(file, after);
  const now = await trustState(file, after, env);
  if (wasTrusted && now) trust.trust(file, now.hash);
}

export function addServer(doc: Document, name: string, entry: McpServerEntry): void {
  doc.setIn(['mcp_servers', name], doc.createNode(compact(entry)));
  const agent = defaultAgent(doc);
  const tools = doc.getIn(['agents', agent, 'tools']);
  const ref = doc.createNode({ mcp: name });
  if (isSeq(tools)) {
    if (!tools.items.some((t) => isMap(t) && t.get('mcp') === name)) tools.items.push(ref);
  } else doc.setIn(['agents', agent, 'tools'], doc.createNode([{ mcp: name }]));
}

/** Removes the server and every agent's reference to it; false when there was none. */
export function removeServer(doc: Document, name: string): boolean {
  if (!doc.hasIn(['mcp_servers', name])) return false;
  doc.deleteIn(['mcp_servers', name]);
  const agents = doc.get('agents');
  if (isMap(agents)) {
    for (const pair of agents.items) {
      const tools = isMap(pair.value) ? pair.value.get('tools') : undefined;
      if (isSeq(tools)) tools.items = tools.items.filter((t) => !(isMap(t) && t.get('mcp') === name));
    }
  }
  return true;
}

export function projectServers(doc: Document): Record<string, McpServerEntry> {
  const servers = doc.toJS()?.mcp_servers as Record<string, McpServerEntry> | undefined;
  return servers ?? {};
}

function defaultAgent(doc: Document): string {
  const name = doc.get('default');
  if (typeof name === 'string' && doc.hasIn(['agents', name])) return name;
  const agents = doc.get('agents');
  const first = isMap(agents) ? agents.items[0]?.key : undefined;
  const key = first && typeof first === 'object' && 'value' in first ? String((first as { value: unknown }).value) : first !== undefined ? String(first) : undefined;
  if (!key) throw new CliError('this agents.yaml has no agents to give the server to', ExitCode.usage);
  return key;
}

function compact(e: McpServerEntry): Record<string, unknown> {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined && !(Array.isArray(v) && !v.length) && !(typeof v === 'object' && v && !Array.isArray(v) && !Object.keys(v).length)));
}
