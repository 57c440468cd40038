import { DEFAULT_APPROVAL_TOOLS } from '../tools/builtin/index.js';
import { PROFILES } from '../models/providers.js';
import { formatRule } from '../agents/allow-rules.js';
import type { BuiltinToolConfig } from '../tools/builtin/index.js';
import type { TeamConfig, ToolRef } from './types.js';
import { listHooks } from '../middlewares/hooks/config.js';

/** `runs \`./check.sh\` on PreToolUse (shell|write_file)`: a hook as the trust prompt shows it. */
export function hookPowerText(h: { event: string; matcher: string; command: string; sandbox?: 'off' | undefined; network?: boolean | undefined }): string {
  // Where it runs is part of what is trusted: the sandbox (the workspace and nothing else), or the host.
  const where = h.sandbox === 'off' ? 'on the host, outside the sandbox' : `in the sandbox${h.network ? ' with network' : ''}`;
  return `runs \`${h.command}\` ${where} on ${h.event}${h.matcher === '*' ? '' : ` (${h.matcher})`}`;
}

/** Something an agents file can do that a repository must not do to a person who only cloned it. */
export interface ConfigPower {
  kind: 'module' | 'mcp' | 'a2a' | 'base_url' | 'api_key_env' | 'secret_interpolation' | 'no_approval' | 'allow' | 'tool_options' | 'hooks';
  /** One line for a person: what would run, or where keys would go. */
  text: string;
}

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|PAT\b|URL|DSN/i;
const DEFAULT_KEY_VARS = new Set(['OPENAI_API_KEY']);
/** Variables a file may read without trust: where the model is, never a credential. */
const HARMLESS_VARS = new Set(['ADK_MODEL', 'OPENAI_BASE_URL']);

/**
 * What this file would run or change beyond the built-in, ask-first defaults: module tools, MCP
 * servers, model endpoints and key variables, secrets read into the file, and tools that would
 * run without asking. A file with none needs no trust.
 */
export function configPowers(config: TeamConfig, env: Record<string, string | undefined> = process.env): ConfigPower[] {
  const out: ConfigPower[] = [];
  const add = (p: ConfigPower) => {
    if (!out.some((o) => o.text === p.text)) out.push(p);
  };
  for (const ref of allToolRefs(config)) {
    if (ref.kind === 'module') add({ kind: 'module', text: `imports module ${ref.path}${ref.exportName ? ` (export ${ref.exportName})` : ''}` });
  }
  for (const a of config.agents.values()) {
    for (const m of a.type === 'chat' || a.type === 'deep' ? (a.middlewares ?? []) : []) {
      if (m.kind === 'module') add({ kind: 'module', text: `imports middleware module ${m.path}${m.exportName ? ` (export ${m.exportName})` : ''} into agent ${a.name}` });
    }
  }
  for (const s of config.mcpServers.values()) {
    const envKeys = Object.keys(s.env);
    const headers = Object.keys(s.headers ?? {});
    if (s.url) add({ kind: 'mcp', text: `connects to MCP server ${s.name} at ${s.url}${headers.length ? ` sending headers ${headers.join(', ')}` : ''}` });
    else add({ kind: 'mcp', text: `starts MCP server ${s.name} ${s.sandbox === 'off' ? 'on the host, outside the sandbox' : 'in the sandbox with network'}: ${[s.command, ...s.args].join(' ')}${s.cwd ? ` in ${s.cwd}` : ''}${envKeys.length ? ` (env ${envKeys.join(', ')})` : ''}` });
    // Plan mode runs only what reads; the server's own hints are not believed, the file's word is.
    if (s.readOnly) add({ kind: 'mcp', text: `lets MCP server ${s.name}'s tools run in plan mode (read_only: true)` });
  }
  // A remote agent is sent the person's messages and its answers reach the models: an endpoint like an MCP server's.
  for (const a of config.agents.values()) for (const r of a.remoteSubAgents ?? []) add({ kind: 'a2a', text: `talks to the A2A agent at ${r.url}` });
  for (const ref of allToolRefs(config)) if (ref.kind === 'a2a') add({ kind: 'a2a', text: `talks to the A2A agent at ${ref.url}` });
  for (const m of config.models.values()) {
    if (m.fromEnvironment || m.provider === 'demo') continue;
    if (m.baseUrl && m.baseUrl !== env.OPENAI_BASE_URL) add({ kind: 'base_url', text: `sends model requests (and the API key) to ${m.baseUrl}` });
    // A provider's own key going to that provider is the default; any other variable is a power.
    const ownKey = m.provider === 'openai' ? DEFAULT_KEY_VARS.has(m.apiKeyEnv ?? '') : PROFILES[m.provider].keyEnv === m.apiKeyEnv;
    if (m.apiKeyEnv && !ownKey) add({ kind: 'api_key_env', text: `sends the value of ${m.apiKeyEnv} as the model's API key` });
  }
  for (const name of config.envRead) {
    if (HARMLESS_VARS.has(name)) continue;
    add({ kind: 'secret_interpolation', text: SECRET_NAME.test(name) ? `reads the secret ${name} into the configuration` : `reads the environment variable ${name} into the configuration` });
  }
  for (const rule of config.allow) add({ kind: 'allow', text: `allows ${formatRule(rule)} without asking` });
  for (const a of config.agents.values()) {
    const p = a.type === 'chat' || a.type === 'deep' ? a.permissions : undefined;
    if (p?.mode === 'accept-edits') add({ kind: 'allow', text: `lets agent ${a.name} edit files without asking (permission_mode: accept-edits)` });
    for (const rule of p?.allow ?? []) add({ kind: 'allow', text: `lets agent ${a.name} run ${formatRule(rule)} without asking` });
  }
  for (const h of listHooks(config.hooks ?? {})) add({ kind: 'hooks', text: hookPowerText(h) });
  for (const a of config.agents.values()) {
    const tools = a.type === 'chat' || a.type === 'deep' ? { refs: a.tools, approval: a.approval } : a.type === 'plan_execute' ? { refs: a.executor.tools, approval: a.executor.approval } : undefined;
    if (!tools) continue;
    for (const ref of tools.refs) {
      if (ref.kind !== 'builtin') continue;
      if (ASK_FIRST.has(ref.name) && !tools.approval.includes(ref.name)) {
        add({ kind: 'no_approval', text: `lets agent ${a.name} run ${ref.name} without asking` });
      }
      for (const text of widenedBy(ref.options)) add({ kind: 'tool_options', text: `${text} for agent ${a.name}` });
    }
  }
  return out;
}

/** What a built-in's options open beyond the defaults (sandbox, no network, allow-listed env, public addresses only). */
function widenedBy(o: BuiltinToolConfig | undefined): string[] {
  if (!o) return [];
  const out: string[] = [];
  if (o.sandbox === 'off') out.push('runs shell commands outside the sandbox');
  if (o.network) out.push('gives shell commands the network');
  if (o.env?.length) out.push(`passes ${o.env.join(', ')} to shell commands`);
  if (o.readPaths?.length) out.push(`lets sandboxed shell commands read ${o.readPaths.join(', ')}`);
  if (o.allowHosts?.length) out.push(`lets fetch_url reach ${o.allowHosts.join(', ')}`);
  return out;
}

/** Built-in tools that ask before they run unless a file says otherwise. */
const ASK_FIRST = new Set<string>(DEFAULT_APPROVAL_TOOLS);

function allToolRefs(config: TeamConfig): ToolRef[] {
  const refs: ToolRef[] = [];
  for (const a of config.agents.values()) {
    if (a.type === 'chat' || a.type === 'deep') refs.push(...a.tools);
    if (a.type === 'plan_execute') refs.push(...a.executor.tools);
  }
  return refs;
}
