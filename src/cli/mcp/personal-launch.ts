import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { defaultAdkHome } from '../../core/store/store-url.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { realPathOrSelf } from '../paths.js';

/**
 * Where the person's own MCP servers (the editor's, from ACP `session/new`, and `adk mcp add --scope
 * user`) start: a folder of adk's own, never the workspace. npx, npm, pnpm and uv look for their
 * configuration and local packages from the folder a program starts in upwards (`.npmrc`,
 * `node_modules/.bin`, `uv.toml`), so a clone started in would choose what `npx some-server` runs.
 * The folder holds an empty package.json and uv.toml so that their search stops here even when
 * ADK_HOME lies inside a workspace (adk run in the home folder).
 */
export function personalLaunchDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = join(defaultAdkHome(env), 'mcp-launch');
  const stub = join(dir, 'package.json');
  if (!existsSync(stub) || !existsSync(join(dir, 'uv.toml'))) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(stub, '{ "private": true, "description": "adk starts your own MCP servers here, away from any workspace" }\n');
    writeFileSync(join(dir, 'uv.toml'), '');
  }
  return dir;
}

/** How one of the person's servers is started: in the launch folder, with `workspace` out of its PATH. */
export function personalLaunch(entry: { env?: Record<string, string> | undefined }, workspace: string, env: NodeJS.ProcessEnv = process.env): { cwd: string; env: Record<string, string> } {
  return { cwd: personalLaunchDir(env), env: { ...entry.env, PATH: pathOutside(workspace, entry.env?.PATH ?? env.PATH) } };
}

/**
 * PATH without what the workspace can write: relative entries (resolved where a program starts) and
 * folders inside it, also one that does not exist yet behind a link into it (`~/current -> ~/proj`:
 * `~/current/node_modules/.bin` is the workspace's to create), judged by its nearest existing folder.
 */
export function pathOutside(workspace: string, pathVar: string | undefined): string {
  const root = realPathOrSelf(workspace);
  const inside = (p: string) => [p, realPathOrSelf(p), realThroughAncestor(p)].some((x) => x === root || x.startsWith(`${root}/`));
  return (pathVar ?? '')
    .split(delimiter)
    .filter((p) => p && isAbsolute(p) && !inside(resolve(p)))
    .join(delimiter);
}

/**
 * A personal server's command must not be found through the workspace: a relative path
 * (`./node_modules/.bin/x`, `bin/server`) would be resolved in the launch folder, where it is not,
 * so it is refused with the fix instead of failing obscurely.
 */
export function checkPersonalCommand(command: string | undefined, name: string, from: 'editor' | 'user'): void {
  if (!command || isAbsolute(command) || !command.includes('/')) return;
  const whose = from === 'editor' ? "the editor's" : 'your';
  throw new CliError(
    `${whose} MCP server '${name}' names the relative command '${command}': ${whose} servers start outside the opened folder (its code must not run unasked); give an absolute path, or a program on PATH`,
    ExitCode.usage,
  );
}

/** The real path of `p` by its nearest existing ancestor (what it would be once created). */
function realThroughAncestor(p: string): string {
  let rest = '';
  let at = resolve(p);
  while (!existsSync(at)) {
    const parent = dirname(at);
    if (parent === at) return p;
    rest = rest ? `${basename(at)}/${rest}` : basename(at);
    at = parent;
  }
  const real = realPathOrSelf(at);
  return rest ? join(real, rest) : real;
}
