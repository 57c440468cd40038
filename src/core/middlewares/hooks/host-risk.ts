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

/** Python runs these modules with `-m`: `python3 -m pytest`. */
const PYTHON = /^python[\d.]*$/;

/**
 * Why `command` must not run on the host (each tool above it uses, in words), or undefined.
 * `python3 -m pytest` counts as pytest.
 */
export function hostRunRisk(command: string): string | undefined {
  const words = shellWords(command);
  const found = new Map<string, string>();
  words.forEach((word, i) => {
    const name = path.basename(word).replace(/\.(?:cmd|exe)$/, '');
    const module = PYTHON.test(name) && words[i + 1] === '-m' ? words[i + 2] : undefined;
    for (const n of [name, module]) if (n && BY_NAME.has(n)) found.set(n, BY_NAME.get(n)!);
  });
  return found.size ? [...found].map(([n, why]) => `\`${n}\` ${why}`).join('; ') : undefined;
}
