import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { normalize } from './normalize.js';
import { ConfigValidationError, ProblemCollector } from './problems.js';
import { checkReferences } from './references.js';
import { checkShape } from './shape-check.js';
import type { ConfigOptions, ConfigProblem, LoadedConfig, TeamConfig, ValidationResult } from './types.js';
import { readYaml } from './yaml-source.js';

/** What validateConfig checks: a path or YAML text (told apart by shape), inline text with an optional file name, or a file. */
export type ValidateInput = string | { text: string; file?: string } | { file: string };

const DEFAULT_FILE_NAME = 'agents.yaml';

/** Reads and validates an agents file; throws ConfigValidationError listing every problem. */
export async function loadConfigFile(file: string, options: ConfigOptions = {}): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ConfigValidationError([readProblem(file, e)]);
  }
  return { file: path.resolve(file), config: parseConfig(text, file, options) };
}

/** Validates YAML text; `file` names it in messages and locates module paths. Throws ConfigValidationError. */
export function parseConfig(text: string, file: string = DEFAULT_FILE_NAME, options: ConfigOptions = {}): TeamConfig {
  const result = validateText(text, file, options);
  if (!result.ok) throw new ConfigValidationError(result.problems);
  return result.config!;
}

/**
 * Checks a file or YAML text and reports every problem at once. Never throws on bad input.
 * A string is taken as text when it looks like YAML (a newline, a leading `{`, or `: `), else as a path.
 */
export function validateConfig(input: ValidateInput, options: ConfigOptions = {}): ValidationResult {
  if (typeof input === 'string' && !looksLikeYaml(input)) input = { file: input };
  if (typeof input === 'string') return validateText(input, DEFAULT_FILE_NAME, options);
  if ('text' in input) return validateText(input.text, input.file ?? DEFAULT_FILE_NAME, options);
  let text: string;
  try {
    text = readFileSync(input.file, 'utf8');
  } catch (e) {
    return { ok: false, problems: [readProblem(input.file, e)] };
  }
  return validateText(text, input.file, options);
}

function looksLikeYaml(s: string): boolean {
  return s.includes('\n') || s.trimStart().startsWith('{') || s.includes(': ');
}

function validateText(text: string, file: string, options: ConfigOptions): ValidationResult {
  try {
    const baseDir = path.resolve(options.baseDir ?? path.dirname(path.resolve(file)));
    // Every variable the file reads through `${…}`, however it is spelled (escapes included): a power to show before trust.
    const envRead = new Set<string>();
    const env = options.env ?? process.env;
    const { doc, collector } = readYaml(text, {
      env: new Proxy(env, { get: (target, name) => (typeof name === 'string' && envRead.add(name), target[name as string]) }),
      maxAliasExpansion: options.maxAliasExpansion,
      problems: (positions) => new ProblemCollector(file, positions),
    });
    if (!doc.syntaxOk) return { ok: false, problems: collector.sorted() };
    const team = checkShape(doc.value, collector);
    const refs = checkReferences(team, baseDir, collector);
    if (collector.count > 0) return { ok: false, problems: collector.sorted() };
    return { ok: true, config: { ...normalize(team, refs, file, baseDir, collector), envRead: [...envRead].sort() }, problems: [] };
  } catch (e) {
    // A bug here must not crash `adk validate`; it still says where.
    return { ok: false, problems: [{ file, line: 0, col: 0, path: '', message: `internal error while validating: ${(e as Error).message}` }] };
  }
}

function readProblem(file: string, e: unknown): ConfigProblem {
  const code = (e as NodeJS.ErrnoException).code;
  const message = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot read file: ${(e as Error).message}`;
  return { file, line: 0, col: 0, path: '', message };
}
