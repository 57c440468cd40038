import path from 'node:path';
import { shellWords } from '../../tools/shell-words.js';

/**
 * Tools that run code the workspace holds without naming it on the command line: package scripts,
 * build files, test fixtures, linters' and formatters' JavaScript configuration, git's hooks. Trust
 * in a hook covers the files its command names (hook-code-trust), not these, so a hook that runs one
 * of them may run only inside the sandbox, where whatever the workspace wrote has no more power than
 * a sandboxed command. Matched on any word of the command line (`cd x && npm run fmt`, `xargs make`):
 * refusing a hook that merely mentions one is the safe mistake.
 */
const RUNNERS: ReadonlyArray<[readonly string[], string]> = [
  [['npm', 'pnpm', 'yarn', 'bun', 'corepack'], "runs package.json's scripts"],
  [['npx', 'pnpx', 'bunx', 'yarnpkg'], "runs the workspace's packages and their configuration"],
  [['make', 'gmake', 'bmake', 'just', 'task', 'rake', 'ninja', 'cmake', 'meson'], 'runs the Makefile (or its kin) of the workspace'],
  [['pytest', 'py.test', 'tox', 'nox', 'hatch', 'poetry', 'pdm', 'pipenv'], 'runs conftest.py and the project files it loads'],
  [['eslint', 'prettier', 'stylelint', 'jest', 'vitest', 'mocha', 'ava', 'tsc', 'tsx', 'ts-node', 'webpack', 'vite', 'rollup', 'esbuild', 'babel', 'next', 'nuxt', 'astro', 'turbo', 'nx', 'lerna'], 'runs its configuration, which is JavaScript in the workspace'],
  [['git'], "runs the repository's hooks and configured programs (.git/hooks, core.fsmonitor)"],
  [['cargo', 'rustc'], 'runs build scripts and proc macros'],
  [['go'], 'runs go:generate lines and test code'],
  [['mvn', 'mvnw', 'gradle', 'gradlew', 'sbt', 'ant', 'dotnet', 'msbuild', 'bazel', 'buck', 'buck2'], "runs the project's build files"],
  [['bundle', 'bundler', 'composer', 'phpunit', 'rspec', 'mix', 'swift', 'deno'], "runs the project's own code or tasks"],
  [['direnv', 'pre-commit', 'lefthook', 'husky', 'nix', 'nix-shell'], "runs the workspace's own configuration"],
];

const BY_NAME = new Map(RUNNERS.flatMap(([names, why]) => names.map((n) => [n, why] as const)));

/** Interpreters whose program can come from the workspace without a file being named. */
const PYTHON = /^python[\d.]*$/;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash']);
/** Flags that give node a program inline or from package.json (`--run`), or preload one. */
const NODE_INLINE = new Set(['-e', '--eval', '-p', '--print', '--run', '-r', '--require', '--import', '--loader']);

/**
 * Why `command` must not run on the host, in words, or undefined. A script given with `-c` is read
 * again; `python -m`/`-c` (Python puts the working folder first on its import path), node's inline
 * and `--run` programs, `source`/`.`, `eval` and command substitution count as running code adk
 * cannot pin. Matched on any word: refusing a hook that merely mentions one is the safe mistake.
 */
export function hostRunRisk(command: string): string | undefined {
  const found = new Map<string, string>();
  collect(command.replace(/\$\{?(?:ADK|CLAUDE)_PROJECT_DIR\}?/g, ''), found, 0);
  return found.size ? [...found].map(([n, why]) => `\`${n}\` ${why}`).join('; ') : undefined;
}

function collect(script: string, found: Map<string, string>, depth: number): void {
  if (/\$\(|`/.test(script)) found.set('$(…)', 'runs a command adk cannot see before it runs');
  const words = shellWords(script);
  words.forEach((word, i) => {
    const name = path.basename(word).replace(/\.(?:cmd|exe)$/, '');
    const next = words[i + 1];
    if (BY_NAME.has(name)) found.set(name, BY_NAME.get(name)!);
    if (name === 'eval' || name === 'source' || (name === '.' && i === 0)) found.set(name, 'runs code it reads at run time');
    if (PYTHON.test(name) && (next === '-m' || next === '-c')) {
      const mod = next === '-m' ? words[i + 2] : undefined;
      found.set(mod ? `python -m ${mod}` : 'python -c', BY_NAME.get(mod ?? '') ?? 'imports from the working folder (the workspace) first');
    }
    if ((name === 'node' || name === 'nodejs') && next && NODE_INLINE.has(next)) found.set(`node ${next}`, next === '--run' ? "runs package.json's scripts" : 'runs a program adk cannot pin');
    // `bash -c "npm run fmt"`: the script is one word; read it again.
    if (SHELLS.has(name) && depth < 3) {
      const c = words.findIndex((w, j) => j > i && /^-[a-z]*c[a-z]*$/.test(w));
      if (c > i && words[c + 1]) collect(words[c + 1]!, found, depth + 1);
    }
  });
}
