import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { shellEnvironment } from './builtin/shell.js';
import { hostModule } from './module-host/module-host.js';
import type { ModuleSandbox } from './module-host/module-process.js';
import { parametersJsonSchema } from './parameters.js';
import type { Tool } from './tool.js';
import { isInside } from './workspace.js';

export interface ModuleToolSpec {
  /** Path of a JS module, relative to the folder of agents.yaml. */
  module: string;
  /** The export holding the tool; the default export when unset. */
  export?: string | undefined;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Why a module path is not allowed, or undefined if it is: it must be relative and stay inside
 * `baseDir`, also after resolving symlinks. A path that does not exist yet only gets the lexical check.
 */
export function checkModulePath(baseDir: string, modulePath: string): string | undefined {
  if (typeof modulePath !== 'string' || modulePath.trim() === '') return 'module path is empty';
  if (path.isAbsolute(modulePath) || /^[a-zA-Z]:[\\/]/.test(modulePath)) {
    return `module path '${modulePath}' is absolute; give a path relative to the folder of agents.yaml`;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(modulePath)) return `module path '${modulePath}' must be a relative file path, not a URL or package`;
  const base = realOrSelf(path.resolve(baseDir));
  const target = path.resolve(base, modulePath);
  if (!isInside(base, target)) return `module path '${modulePath}' leaves the folder of agents.yaml (${base})`;
  const real = realOrUndefined(target);
  if (real !== undefined && !isInside(base, real)) {
    return `module path '${modulePath}' resolves (through a symbolic link) to '${real}', outside the folder of agents.yaml (${base})`;
  }
  return undefined;
}

export interface ModuleToolOptions {
  /** process.env inside the module's worker; default: the shell's allow-list of process.env. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Called with the worker's stop function, so whoever loaded the tool can end it. */
  onClose?: ((close: () => Promise<void>) => void) | undefined;
  /** Asked before the module loads (also again, after a cancel) and before each call; a change refuses both. */
  codeGuard?: (() => Promise<string | undefined>) | undefined;
  /** Where its process runs (asked at each start): inside bwrap, or not (see ModuleSandbox). */
  sandbox?: (() => Promise<ModuleSandbox>) | undefined;
}

/**
 * Loads a tool from a JS module next to agents.yaml, in a process of its own (in the sandbox where
 * bwrap works) that sees only an allow-listed environment (the same as shell commands), and checks its shape.
 */
export async function loadModuleTool(baseDir: string, spec: ModuleToolSpec, options: ModuleToolOptions = {}): Promise<Tool> {
  const refused = checkModulePath(baseDir, spec.module);
  if (refused) throw new ConfigError(refused);
  const file = realOrUndefined(path.resolve(realOrSelf(path.resolve(baseDir)), spec.module));
  if (file === undefined) throw new ConfigError(`module '${spec.module}' does not exist (looked in ${path.resolve(baseDir)})`);

  const exportName = spec.export ?? 'default';
  const hosted = await hostModule(file, exportName, spec.module, options.env ?? shellEnvironment(process.env), options.codeGuard, options.sandbox);
  const where = `export '${exportName}' of module '${spec.module}'`;
  try {
    if (!hosted.describe.isObject) throw new ConfigError(`${where} is not a tool object ({ name, description, parameters, execute }); got ${hosted.describe.typeOf}`);
    if (hosted.describe.schemaError) throw new ConfigError(`${where} is not a valid tool: \`parameters\` cannot be turned into a JSON schema: ${hosted.describe.schemaError}`);
    const tool = hosted.tool((standIn) => checkToolShape(standIn, where));
    options.onClose?.(hosted.close);
    return tool;
  } catch (e) {
    await hosted.close();
    throw e;
  }
}

/** A module tool must be `{ name, description, parameters, execute }`; the error says what is wrong. */
export function checkToolShape(value: unknown, where: string): Tool {
  const problems: string[] = [];
  const t = value as Partial<Tool> | null;
  if (!t || typeof t !== 'object') throw new ConfigError(`${where} is not a tool object ({ name, description, parameters, execute }); got ${typeof value}`);
  if (typeof t.name !== 'string' || !TOOL_NAME.test(t.name)) problems.push('`name` must be a string of 1-64 letters, digits, _ or -');
  if (typeof t.description !== 'string') problems.push('`description` must be a string');
  if (!t.parameters || typeof t.parameters !== 'object') problems.push('`parameters` must be a zod schema or a JSON schema object');
  if (typeof t.execute !== 'function') problems.push('`execute` must be a function');
  if (t.timeoutMs !== undefined && (typeof t.timeoutMs !== 'number' || !(t.timeoutMs > 0))) problems.push('`timeoutMs` must be a positive number');
  if (!problems.length) {
    try {
      parametersJsonSchema(t as Tool);
    } catch (e) {
      problems.push(`\`parameters\` cannot be turned into a JSON schema: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(`${where} is not a valid tool: ${problems.join('; ')}`);
  return t as Tool;
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

const realOrSelf = (p: string): string => realOrUndefined(p) ?? p;
