import './zod-setup.js';
import { Command, Option } from 'commander';
import { errorLine, ExitCode, exitCodeFor } from './exit-codes.js';
import { applySettings } from './settings.js';
import { packageVersion } from './version.js';
import { sanitizeText } from '../ui/text/sanitize.js';

// Each command module is imported only when that command runs, so `adk --version` stays fast.
const program = new Command()
  .name('adk')
  .description('Agent Development Kit: run teams of agents from the terminal.')
  .version(packageVersion(), '-v, --version')
  .showHelpAfterError('(run `adk --help` for usage)')
  .exitOverride((err) => {
    process.exit(err.exitCode === 0 ? 0 : ExitCode.usage);
  });

const chatCommandLine = program
  .command('chat')
  .description('the interactive REPL (a new session); offline demo team when no model is configured')
  .option('--model <model>', 'model name (overrides ADK_MODEL; `demo` is the offline model)')
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .option('--agent <name>', 'agent to talk to (default: the file’s `default`)')
  .option('--fallback <models>', 'models to ask when the model is unavailable after its retries (comma-separated `models:` names or model ids)', splitList)
  .option('-c, --continue', 'continue the most recent session of this folder')
  .option('--permission-mode <mode>', 'start in this mode: default, accept-edits, plan, or bypass (Shift-Tab cycles them)')
  .option('--dangerously-skip-permissions', 'allow the bypass mode (every call runs unasked); refused as root outside a sandbox')
  .option('--otel', 'export OpenTelemetry spans over OTLP/HTTP');
budgetOptions(chatCommandLine, 'each turn').action(async (opts) => {
    const [{ chatCommand }, { withOtel }] = await Promise.all([import('./commands/chat.js'), import('./otel.js')]);
    process.exitCode = await withOtel(opts.otel, () => chatCommand(opts));
  });

const runCommandLine = program
  .command('run')
  .description('run one prompt headless; `-` reads the prompt from stdin')
  .argument('<prompt...>', 'the prompt, or - for stdin')
  .option('--json', 'print JSON Lines events on stdout')
  .option('--model <model>', 'model name (overrides ADK_MODEL; `demo` is the offline model)')
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .option('--agent <name>', 'agent to run (default: the file’s `default`)')
  .option('--session <id>', 'add this turn to an existing session')
  .option('--file <path>', 'attach an image (png, jpg, webp, gif) or a PDF to the prompt (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
  .option('--fallback <models>', 'models to ask when the model is unavailable after its retries (comma-separated `models:` names or model ids)', splitList)
  .option('--otel', 'export OpenTelemetry spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT, default localhost:4318)')
  .option('--until <check>', 'goal mode: after each attempt run this check in the sandbox (e.g. "npm test"); while it fails, its output goes to the model and another attempt follows')
  .option('--max-attempts <n>', 'goal mode: attempts before the run ends incomplete (default 10)')
  .option('--trajectory <file>', 'write the session as an ATIF trajectory (Harbor, Terminal-Bench) to this file at the end');
unattendedOptions(runCommandLine).action(async (prompt: string[], opts) => {
    const [{ runCommand }, { withOtel }] = await Promise.all([import('./commands/run.js'), import('./otel.js')]);
    process.exitCode = await withOtel(opts.otel, () => runCommand(prompt, opts));
  });

const resumeCommandLine = program
  .command('resume')
  .description('continue a session: answer its pending interrupts, or add a prompt')
  .argument('[id]', 'session id (or a unique prefix); without one, a list of the sessions to pick from (typing filters it)')
  .argument('[prompt...]', 'a new prompt for a finished session')
  .option('--json', 'print JSON Lines events on stdout')
  .option('--approve [ids...]', 'approve pending approvals (all, or the given interrupt ids)')
  .option('--reject [ids...]', 'reject pending approvals (all, or the given interrupt ids)')
  .option('--always [ids...]', 'approve pending approvals and let their tools run without asking for the rest of the session')
  .option('--reason <text>', 'why (sent to the model with --reject)')
  .option('--input <text>', 'answer pending questions (ask_user)')
  .option('--targets <json>', 'raw resume data: {"<interruptId>": data}')
  .option('--raise <budget=value>', 'raise a reached budget and go on: max_cost=5, max_model_calls=40 (repeatable)', (v: string, all: string[] = []) => [...all, v])
  .option('--model <model>', 'model name')
  .option('--fork', 'continue in a new session with its history (the session itself stays as it is)')
  .option('--otel', 'export OpenTelemetry spans over OTLP/HTTP');
unattendedOptions(resumeCommandLine).action(async (id: string | undefined, prompt: string[], opts) => {
    const [{ resumeCommand }, { withOtel }] = await Promise.all([import('./commands/resume.js'), import('./otel.js')]);
    process.exitCode = await withOtel(opts.otel, () => resumeCommand(id, prompt, opts));
  });

const serveCommandLine = program
  .command('serve')
  .description('the HTTP + SSE API: sessions, turns and interrupts over HTTP; every client needs its token (ADK_SERVE_TOKEN, else ADK_HOME/serve-token)')
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .option('--agent <name>', 'the team new sessions get (default: the file’s `default`)')
  .option('--model <model>', 'model name (overrides ADK_MODEL)')
  .option('--host <host>', 'address to listen on (default 127.0.0.1)')
  .option('--port <port>', 'port (default 8321; 0 picks a free one)')
  .option('--socket <path>', 'listen on a Unix socket only you can open (0600) instead of a port; no token is needed there')
  .option('--no-token', 'serve loopback without a token: every local account and container on this machine can then drive it')
  .option('--cors <origin>', 'let this browser origin call the API (repeat for more)', (v: string, all: string[] = []) => [...all, v])
  .option('--client-policy <any|narrow>', 'narrow: a session policy from a client may only narrow what runs (deny rules, plan mode), never allow more (allow rules, accept-edits)')
  .option('--deerflow-agent <name>', 'the team DeerFlow’s front end talks to at /api/chat/stream (default: research)')
  .option('--in-process', 'with a Redis store, run turns in this process instead of queuing them for `adk worker`')
  .option('--deerflow2', 'also serve DeerFlow 2’s front end: its gateway paths under /api, signed in with the token as password (run it at --port 8001, where its build proxies)')
  .option('--a2a', 'also speak A2A: each agent’s card at /a2a/<agent>/.well-known/agent-card.json (the default agent’s at /.well-known/agent-card.json), JSON-RPC at /a2a/<agent>');
budgetOptions(serveCommandLine, 'each turn').action(async (opts) => {
    const { serveCommand } = await import('./commands/serve.js');
    process.exitCode = await serveCommand(opts);
  });

const acpCommandLine = program
  .command('acp')
  .description('speak the Agent Client Protocol on stdin/stdout: adk inside Zed, JetBrains, Neovim, Emacs (see docs/acp.md)')
  .option('--agents <file>', 'agents file for every session (default: each session folder’s agents.yaml, else the bundled one)')
  .option('--agent <name>', 'the team new sessions get (default: the file’s `default`)')
  .option('--model <model>', 'model name (overrides ADK_MODEL)');
budgetOptions(acpCommandLine, 'each turn').action(async (opts) => {
    const [{ acpCommand }, { budgetLimits, dailyLimits }] = await Promise.all([import('./acp/acp-command.js'), import('./unattended.js')]);
    process.exitCode = await acpCommand({ ...opts, budget: budgetLimits(opts), dailyBudget: dailyLimits(opts) });
  });

const mcp = program.command('mcp').description('MCP servers: add, list, log in to them; and `adk mcp serve` (teams as MCP tools)');
const scopeOption = () => new Option('--scope <scope>', 'project: this folder’s agents.yaml; user: yours, for every team (default: project when ./agents.yaml exists)').choices(['project', 'user']);
const collect = (v: string, prev: string[] = []) => [...prev, v];
mcp
  .command('add')
  .description('add a server: `adk mcp add NAME https://…` (remote) or `adk mcp add NAME -- npx -y some-server` (local)')
  .argument('<name>', 'the server’s name (its tools’ prefix in /mcp)')
  .argument('<commandOrUrl>', 'the command to start, or the URL of a remote server')
  .argument('[args...]', 'the command’s arguments')
  .addOption(scopeOption())
  .addOption(new Option('--transport <transport>', 'stdio (a command) or http / sse (a URL; http falls back to sse for older servers)').choices(['stdio', 'http', 'sse']))
  .option('--header <header>', 'a header for a remote server, "Name: value" (repeatable; write ${VAR} to keep a secret out of the file)', collect)
  .option('--env <pair>', 'an environment variable for a local server, NAME=value (repeatable)', collect)
  .action(async (name: string, target: string, args: string[], opts) => {
    const { mcpAddCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpAddCommand(name, target, args, opts);
  });
mcp
  .command('list')
  .description('the servers of this folder and yours, each reached to show whether it works')
  .option('--json', 'print JSON')
  .action(async (opts) => {
    const { mcpListCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpListCommand(opts);
  });
mcp
  .command('get')
  .description('one server: its settings (credentials masked), status and tools')
  .argument('<name>')
  .option('--json', 'print JSON')
  .action(async (name: string, opts) => {
    const { mcpGetCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpGetCommand(name, opts);
  });
mcp
  .command('remove')
  .description('remove a server (and the agents’ references to it)')
  .argument('<name>')
  .addOption(scopeOption())
  .action(async (name: string, opts) => {
    const { mcpRemoveCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpRemoveCommand(name, opts);
  });
mcp
  .command('login')
  .description('log in to a remote server (OAuth in your browser); tokens stay in ADK_HOME/mcp-auth (0600)')
  .argument('<name>')
  .action(async (name: string) => {
    const { mcpLoginCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpLoginCommand(name);
  });
mcp
  .command('logout')
  .description('forget (and revoke, where the server can) a remote server’s tokens')
  .argument('<name>')
  .action(async (name: string) => {
    const { mcpLogoutCommand } = await import('./commands/mcp.js');
    process.exitCode = await mcpLogoutCommand(name);
  });
const mcpServeCommandLine = mcp
  .command('serve')
  .description('offer adk teams as MCP tools to Claude Code, Codex, Cursor…: stdio by default, streamable HTTP with --http')
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .option('--agent <name>', 'offer this agent as a tool (repeatable; default: every root agent)', collect)
  .option('--http <port>', 'serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (0 picks a port)')
  .option('--host <host>', 'HTTP address (default 127.0.0.1; beyond loopback the token is required)')
  .option('--socket <path>', 'serve HTTP on a Unix socket only you can open (0600); no token needed there')
  .option('--no-token', 'HTTP on loopback without the token: every local account can then run these teams')
  .option('--model <model>', 'model name (overrides ADK_MODEL)')
  .option('--permission-mode <mode>', 'how calls run: default, accept-edits (file edits run unasked) or plan (read-only tools)')
  .option('--allow <rule>', 'let calls matching this rule run unasked: shell(npm test) (repeatable)', collect)
  .option('--deny <rule>', 'never run calls matching this rule (repeatable)', collect)
  .option('--on-approval <what>', 'when a call needs a person and the client cannot ask: ask (the call ends waiting), deny (answer "no" and go on) or fail (end it incomplete)');
budgetOptions(mcpServeCommandLine, 'each call').action(async (opts) => {
    const { mcpServeCommand } = await import('./commands/mcp-serve.js');
    process.exitCode = await mcpServeCommand(opts);
  });

const workerCommandLine = program
  .command('worker')
  .description('run the turns `adk serve` queues on Redis (ADK_STORE=redis://…); start as many as you like, on any machine')
  .option('--model <model>', 'model name (overrides ADK_MODEL and the one a session was saved with)')
  .option('--concurrency <n>', 'turns this worker runs at once (default 1)');
budgetOptions(workerCommandLine, 'each turn').action(async (opts) => {
    const { workerCommand } = await import('./commands/worker.js');
    process.exitCode = await workerCommand(opts);
  });

program
  .command('sessions')
  .description('list, show, export, delete or share saved sessions (share: `adk serve` shows it to its clients)')
  .argument('[action]', 'list | show | export | import | delete | share', 'list')
  .argument('[id]', 'session id (import: the file: a Claude Code or Codex session .jsonl, a gemini-cli session .json, or an ATIF trajectory)')
  .option('--json', 'print JSON')
  .option('--format <format>', 'export: atif (Harbor ATIF-v1.7 trajectory, sub-agent runs embedded; the default), jsonl (one message a line) or markdown')
  .option('--output <file>', 'export: write to this file instead of stdout')
  .action(async (action: string, id: string | undefined, opts) => {
    const { sessionsCommand } = await import('./commands/sessions.js');
    process.exitCode = await sessionsCommand(action, id, opts);
  });

program
  .command('eval')
  .description('measure agents on tasks: Harbor/Terminal-Bench task folders or eval.yaml (run, check, show, compare; docs/eval.md)')
  .argument('<action>', 'run | check | show | compare')
  .argument('[paths...]', 'task folders, or folders of them (show: a results folder)')
  .option('--agents <file>', 'a configuration to measure (repeatable: side by side)', (v: string, all: string[] = []) => [...all, v])
  .option('--agent <name>', "the agent to run (oracle: each task's own solution, as Harbor's oracle agent)")
  .option('--trials <k>', 'trials per task and configuration (pass@k)', '1')
  .option('--concurrency <n>', 'trials at once', '1')
  .option('--out <dir>', 'where results.json and the trajectories go (default: eval-results/<time>)')
  .option('--max-cost <usd>', 'per trial: the run stops at this cost')
  .option('--max-model-calls <n>', 'per trial')
  .option('--max-tool-calls <n>', 'per trial')
  .option('--max-tokens <n>', 'per trial')
  .option('--max-turns <n>', 'per trial')
  .option('--json', 'print results.json instead of the table')
  .action(async (action: string, paths: string[], opts) => {
    const { evalCommand } = await import('./commands/eval.js');
    process.exitCode = await evalCommand(action, paths, opts);
  });

program
  .command('validate')
  .description('check an agents.yaml: exit 0, or 2 with every problem as file:line:col')
  .argument('[file]', 'agents file (default ./agents.yaml, else the bundled one)')
  .action(async (file: string | undefined) => {
    const { validateCommand } = await import('./commands/config-file.js');
    process.exitCode = await validateCommand(file);
  });

program
  .command('agents')
  .description('print the agent tree with types, tools and models')
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .action(async (opts) => {
    const { agentsCommand } = await import('./commands/config-file.js');
    process.exitCode = await agentsCommand(opts);
  });

program
  .command('models')
  .description("list the models each endpoint of the team offers (GET /models; Anthropic's model list)")
  .option('--agents <file>', 'agents file (default ./agents.yaml, else the bundled one)')
  .option('--json', 'one JSON line per endpoint')
  .action(async (opts) => {
    const { modelsCommand } = await import('./commands/models.js');
    process.exitCode = await modelsCommand(opts);
  });

program
  .command('trust')
  .description("trust a folder's agents.yaml (module tools, MCP servers, endpoints): by path and content hash")
  .argument('[path]', 'folder (its agents.yaml) or agents file; default the current folder')
  .option('--list', 'list trusted agents files')
  .option('--revoke <dir>', 'forget every trusted file under this folder (agents file, .adk settings and command files)')
  .option('--yes', 'do not ask (for scripts): trust what is printed')
  .action(async (path: string | undefined, opts) => {
    const { trustCommand } = await import('./commands/trust.js');
    process.exitCode = await trustCommand(path, opts);
  });

program
  .command('config')
  .description('user settings (model, base_url, store) under ADK_HOME; never API keys')
  .argument('[action]', 'get | set | unset | list | path', 'list')
  .argument('[name]', 'setting name')
  .argument('[value]', 'value for set')
  .action(async (action: string, name: string | undefined, value: string | undefined) => {
    const { configCommand } = await import('./commands/config.js');
    process.exitCode = await configCommand(action, name, value);
  });

program.addOption(new Option('--debug', 'print stack traces').hideHelp());

async function main(): Promise<void> {
  try {
    applySettings();
    await program.parseAsync(process.argv);
  } catch (e) {
    const err = e as Error;
    process.stderr.write(`adk: ${sanitizeText(errorLine(err))}\n`);
    if (process.argv.includes('--debug') && err.stack) process.stderr.write(`${err.stack}\n`);
    process.exitCode = exitCodeFor(e);
  }
}

// No top-level await: the CLI bundle is also built as CommonJS (its code can then be cached between runs).
void main().then(() => {
  // The command is done. Whatever still holds the event loop (a tool that ignored its AbortSignal
  // and left a timer running) must not keep a finished or cancelled run alive; output still on
  // its way to a slow reader is let out first.
  setTimeout(function exitOnceFlushed() {
    if (process.stdout.writableLength || process.stderr.writableLength) return void setTimeout(exitOnceFlushed, 20).unref();
    process.exit();
  }, 250).unref();
});

/** The flags of a run nobody watches (src/cli/unattended.ts): `adk run` and a headless `adk resume`. */
function unattendedOptions(command: Command): Command {
  const repeat = (v: string, prev: string[] = []) => [...prev, v];
  command
    .option('--permission-mode <mode>', 'default, accept-edits (file edits run unasked), plan (read-only tools), or bypass (needs --dangerously-skip-permissions)')
    .option('--dangerously-skip-permissions', 'allow the bypass mode (every call runs unasked); refused as root outside a sandbox')
    .option('--allow <rule>', 'let calls matching this rule run unasked, for this run: shell(npm test), write_file(docs/*) (repeatable)', repeat)
    .option('--deny <rule>', 'never run calls matching this rule, for this run (repeatable)', repeat)
    .option('--on-approval <what>', 'when a call needs a person: ask (stop and wait, exit 3), deny (answer "no" with a reason and go on), fail (end incomplete, exit 1)')
    .option('--sandbox <mode>', 'container: the container adk runs in is the sandbox (where bwrap cannot work); refused where adk sees no container (also ADK_SANDBOX)')
    .option('--max-time <duration>', 'cancel the run at its next safe point after this long (90s, 20m, 1h) and end it incomplete');
  return budgetOptions(command, 'the run');
}

/**
 * The caps of `what` (a run, each turn of the REPL): reaching one stops it at a safe point, waiting for
 * the person to raise it (the REPL asks; headless, the run ends incomplete and `adk resume ID --raise` goes on).
 */
function budgetOptions(command: Command, what: string): Command {
  return command
    .option('--max-turns <n>', `stop ${what} before its n+1th turn (a model call of its own agents; agents run as tools not counted)`)
    .option('--max-model-calls <n>', `stop ${what} before its n+1th model call, sub-agents included`)
    .option('--max-tool-calls <n>', `refuse tool calls of ${what} past the nth, and stop it before its next model call`)
    .option('--max-tokens <n>', `stop ${what} before the next model call once n tokens (in and out) are spent`)
    .option('--max-cost <usd>', `stop ${what} before the next model call once this many US dollars are spent (each model priced by its price: entry, else the bundled list price)`)
    .option('--max-daily-model-calls <n>', 'no model call past the nth today (UTC) over every run on this store: processes sharing a Redis share the count')
    .option('--max-daily-tokens <n>', 'no model call once n tokens are spent today over every run on this store')
    .option('--max-daily-cost <usd>', 'no model call once this many US dollars are spent today over every run on this store');
}

/** `a,b c` → ['a', 'b', 'c'] (repeatable options add up). */
function splitList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(/[\s,]+/).filter(Boolean)];
}
