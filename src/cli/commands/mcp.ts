import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { CliError, ExitCode } from '../exit-codes.js';
import { sanitizeText } from '../../ui/text/sanitize.js';
import { addServer, editProjectServers, projectServers, removeServer } from '../mcp/project-servers.js';
import { describeEntry, maskedEntry, type McpServerEntry } from '../mcp/server-entry.js';
import { readUserServers, userMcpFile, writeUserServers } from '../mcp/user-servers.js';
import { checkPersonalCommand, personalLaunch } from '../mcp/personal-launch.js';
import { TrustStore } from '../trust.js';
import { shellSandboxFromEnv } from '../shell-sandbox-env.js';
import { defaultAdkHome } from '../../core/store/store-url.js';
import type { McpPoolOptions } from '../../core/tools/mcp.js';
import { addConfigSecret, configSecretValues } from '../secrets.js';
import { redactSecrets, secretsFromEnv } from '../../core/store/redact.js';

type Scope = 'project' | 'user';

export interface McpAddOptions {
  scope?: Scope;
  transport?: 'stdio' | 'http' | 'sse';
  header?: string[];
  env?: string[];
}

// Nothing printed carries a secret from the environment or the configuration.
const out = (s: string) => process.stdout.write(sanitizeText(redactSecrets(s, [...secretsFromEnv(), ...configSecretValues()])));
const projectFile = () => resolve('agents.yaml');

/** `adk mcp add NAME COMMAND|URL [ARGS…]`, as `claude mcp add` takes it. */
export async function mcpAddCommand(name: string, target: string, args: string[], opts: McpAddOptions): Promise<number> {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new CliError(`'${name}' is not a server name: use letters, digits, _ and -`, ExitCode.usage);
  const remote = /^https?:\/\//i.test(target);
  const transport = opts.transport ?? (remote ? 'http' : 'stdio');
  if (remote !== (transport !== 'stdio')) throw new CliError(remote ? `${target} is a URL: use --transport http or sse` : `--transport ${transport} needs a URL (https://…), not a command`, ExitCode.usage);
  const entry: McpServerEntry = remote
    ? { url: target, ...(transport === 'sse' ? { transport: 'sse' } : {}), ...(opts.header?.length ? { headers: pairs(opts.header, ':', '--header "Name: value"') } : {}) }
    : { command: target, ...(args.length ? { args } : {}), ...(opts.env?.length ? { env: pairs(opts.env, '=', '--env NAME=value') } : {}) };
  if (remote && args.length) throw new CliError(`a remote server takes no arguments after its URL (got ${args.join(' ')})`, ExitCode.usage);
  const scope = opts.scope ?? (existsSync(projectFile()) ? 'project' : 'user');
  if (scope === 'project') {
    const file = projectFile();
    if (!existsSync(file)) throw new CliError(`there is no agents.yaml in ${process.cwd()}: use --scope user, or create one (adk init)`, ExitCode.usage);
    const existing = projectServers(parseDocument(readFileSync(file, 'utf8')));
    if (existing[name]) throw new CliError(`${file} already has an MCP server '${name}': adk mcp remove ${name} first`, ExitCode.usage);
    await editProjectServers(file, (doc) => addServer(doc, name, entry));
    out(`Added MCP server ${name} (${describeEntry(entry)}) to ${file}; its default agent has its tools.\n`);
  } else {
    checkPersonalCommand(entry.command, name, 'user');
    const servers = readUserServers();
    if (servers[name]) throw new CliError(`you already have an MCP server '${name}' (${userMcpFile()}): adk mcp remove ${name} --scope user first`, ExitCode.usage);
    writeUserServers({ ...servers, [name]: entry });
    out(`Added MCP server ${name} (${describeEntry(entry)}) for you (${userMcpFile()}); every team's first agent has its tools.\n`);
  }
  if (remote) out(`If it asks for a login: adk mcp login ${name}\n`);
  return ExitCode.ok;
}

/** `adk mcp list`: the folder's and the person's servers, each reached to tell whether it works. */
export async function mcpListCommand(opts: { json?: boolean }): Promise<number> {
  const rows = await Promise.all((await allServers()).map(async (s) => ({ ...s, entry: maskedEntry(s.entry), ...(await health(s)) })));
  if (opts.json) {
    out(`${JSON.stringify(rows, null, 2)}\n`);
    return ExitCode.ok;
  }
  if (!rows.length) out('No MCP servers. Add one: adk mcp add NAME https://… (remote) or adk mcp add NAME -- npx -y some-server (local)\n');
  for (const r of rows) out(`${r.name} (${r.scope}): ${describeEntry(r.entry)} — ${r.status}\n`);
  return ExitCode.ok;
}

/** `adk mcp get NAME`: one server, its settings (credentials masked), status and tools. */
export async function mcpGetCommand(name: string, opts: { json?: boolean }): Promise<number> {
  const s = await findServer(name);
  const h = await health(s, true);
  const info = { name, scope: s.scope, ...maskedEntry(s.entry), ...h };
  if (opts.json) out(`${JSON.stringify(info, null, 2)}\n`);
  else out(`${name} (${s.scope})\n  ${describeEntry(maskedEntry(s.entry))}\n  status: ${h.status}${h.tools?.length ? `\n  tools: ${h.tools.join(', ')}` : ''}\n`);
  return ExitCode.ok;
}

export async function mcpRemoveCommand(name: string, opts: { scope?: Scope }): Promise<number> {
  const s = await findServer(name, opts.scope);
  if (s.scope === 'project') await editProjectServers(projectFile(), (doc) => void removeServer(doc, name));
  else {
    const servers = readUserServers();
    delete servers[name];
    writeUserServers(servers);
  }
  out(`Removed MCP server ${name} (${s.scope}).\n`);
  return ExitCode.ok;
}

/** `adk mcp login NAME`: OAuth in the browser (a loopback redirect); the tokens stay in ADK_HOME/mcp-auth. */
export async function mcpLoginCommand(name: string): Promise<number> {
  const url = await remoteUrl(name);
  const { mcpLogin, setOAuthSecretSink } = await import('../../core/tools/mcp-oauth/index.js');
  setOAuthSecretSink(addConfigSecret);
  await mcpLogin(name, url, { onAuthorizationUrl: (u) => process.stderr.write(`Opening your browser to log in to ${name}. If it does not open, visit:\n${sanitizeText(u.href)}\n`) });
  out(`Logged in to ${name}.\n`);
  return ExitCode.ok;
}

export async function mcpLogoutCommand(name: string): Promise<number> {
  const url = await remoteUrl(name);
  const { mcpLogout } = await import('../../core/tools/mcp-oauth/index.js');
  const r = await mcpLogout(name, url);
  out(r.removed ? `Logged out of ${name}${r.revoked ? ' (the server revoked the tokens)' : ''}.\n` : `You were not logged in to ${name}.\n`);
  return ExitCode.ok;
}

interface Found {
  name: string;
  scope: Scope;
  entry: McpServerEntry;
}

/** Every server with its settings as a run would use them (`${VAR}` expanded from the environment). */
async function allServers(): Promise<Found[]> {
  const found: Found[] = [];
  if (existsSync(projectFile())) {
    const file = projectFile();
    const { validateConfig } = await import('../../core/config/index.js');
    // `${VAR}`s are filled in only for a file this person trusts: an untrusted one is shown as written.
    const r = (await projectTrusted()) ? validateConfig({ text: readFileSync(file, 'utf8'), file }, { env: process.env }) : undefined;
    if (r?.ok && r.config) {
      for (const [name, d] of r.config.mcpServers) {
        found.push({ name, scope: 'project', entry: d.url ? { url: d.url, transport: d.transport, headers: d.headers } : { command: d.command, args: d.args, env: d.env } });
      }
    } else for (const [name, entry] of Object.entries(projectServers(parseDocument(readFileSync(file, 'utf8'))))) found.push({ name, scope: 'project', entry });
  }
  for (const [name, entry] of Object.entries(readUserServers())) found.push({ name, scope: 'user', entry });
  return found;
}

async function findServer(name: string, scope?: Scope): Promise<Found> {
  const hits = (await allServers()).filter((s) => s.name === name && (!scope || s.scope === scope));
  if (!hits.length) throw new CliError(`no MCP server '${name}'${scope ? ` in the ${scope} scope` : ''}; adk mcp list shows them`, ExitCode.usage);
  if (hits.length > 1) throw new CliError(`'${name}' is both this folder's and yours: say which with --scope project or --scope user`, ExitCode.usage);
  return hits[0]!;
}

async function remoteUrl(name: string): Promise<string> {
  const s = await findServer(name);
  // Logging in talks to the URL (with its `${VAR}`s filled in): a folder's server only once the folder is trusted.
  if (s.scope === 'project' && !(await projectTrusted())) throw new CliError(`MCP server '${name}' belongs to ${projectFile()}, which is not trusted: read it, then run adk trust ${process.cwd()}`, ExitCode.usage);
  if (!s.entry.url) throw new CliError(`MCP server '${name}' runs locally (${describeEntry(s.entry)}); only remote servers log in`, ExitCode.usage);
  return s.entry.url;
}

/**
 * Whether a server works: a remote one is reached (its login state said), a local one is started,
 * unless it belongs to an agents.yaml this person has not trusted (that would run the folder's code
 * or send its headers).
 */
async function health(s: Found, withTools = false): Promise<{ status: string; tools?: string[] }> {
  // The folder's servers run its code or are sent its headers: only once the person trusts the file.
  if (s.scope === 'project' && !(await projectTrusted())) return { status: 'not reached: this agents.yaml is not trusted (adk trust)' };
  const [{ McpServerPool }, oauth] = await Promise.all([import('../../core/tools/mcp.js'), s.entry.url ? import('../../core/tools/mcp-oauth/index.js') : undefined]);
  oauth?.setOAuthSecretSink(addConfigSecret);
  for (const [k, v] of Object.entries({ ...s.entry.headers, ...s.entry.env })) if (/auth|token|key|secret|cookie|passw/i.test(k)) addConfigSecret(v);
  const pool = new McpServerPool(
    // The person's own servers start in adk's launch folder with no workspace folder on PATH, as in a run:
    // a folder's files (.npmrc, node_modules/.bin) must not change what they run.
    { [s.name]: s.scope === 'user' ? { ...s.entry, ...personalLaunch(s.entry, process.cwd()) } : { ...s.entry, cwd: process.cwd() } },
    { startTimeoutMs: 10_000, ...(oauth ? { authProvider: (n: string, u: string) => oauth.oauthProvider(n, u, { interactive: false }) } : {}), ...(s.scope === 'project' ? await projectSandbox() : {}) },
  );
  try {
    const tools = await pool.toolsFor(s.name);
    return { status: `✓ connected, ${tools.length} tools`, ...(withTools ? { tools: tools.map((t) => t.name) } : {}) };
  } catch (e) {
    return { status: `✗ ${(e as Error).message.replace(/\s*\n\s*/g, ' ')}` };
  } finally {
    await pool.close();
  }
}

/** A folder's local server starts in the shell's sandbox, exactly as in a run (team.ts). */
async function projectSandbox(): Promise<{ sandbox?: McpPoolOptions['sandbox'] }> {
  if (shellSandboxFromEnv(process.env) === 'off') return {};
  const { mcpSandbox, adkPackages } = await import('../../core/tools/mcp-sandbox.js');
  const readPaths = [dirname(projectFile()), adkPackages(), ...(process.env.ADK_SANDBOX_READ_PATHS?.split(/[\s,]+/).filter(Boolean) ?? [])];
  const adkHome = defaultAdkHome(process.env);
  return { sandbox: mcpSandbox({ workspace: process.cwd(), readPaths: () => readPaths, hidden: [adkHome], homes: join(adkHome, 'mcp-home'), baseDir: dirname(projectFile()) }) };
}

async function projectTrusted(): Promise<boolean> {
  const file = projectFile();
  const text = readFileSync(file, 'utf8');
  const { validateConfig, teamFingerprint, configPowers } = await import('../../core/config/index.js');
  const r = validateConfig({ text, file }, { env: process.env });
  if (!r.ok || !r.config) return false;
  if (!configPowers(r.config, process.env).length) return true;
  return new TrustStore().isTrusted(file, (await teamFingerprint(text, r.config)).hash);
}

/** `--header "K: V"` / `--env K=V` lists as an object. */
function pairs(items: string[], sep: string, form: string): Record<string, string> {
  const o: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(sep);
    if (at <= 0) throw new CliError(`'${item}' is not ${form}`, ExitCode.usage);
    o[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return o;
}

