import { constants } from 'node:fs';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'target', '.venv', 'venv', '__pycache__', '.next', 'coverage', '.adk']);
const LANGUAGES: Record<string, string> = {
  '.ts': 'TypeScript', '.tsx': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.py': 'Python', '.go': 'Go', '.rs': 'Rust',
  '.java': 'Java', '.kt': 'Kotlin', '.rb': 'Ruby', '.php': 'PHP', '.cs': 'C#', '.c': 'C', '.cpp': 'C++', '.swift': 'Swift',
};

/** What a look at the folder shows: languages by file count, top-level folders, build and test commands. */
async function survey(root: string): Promise<{ languages: string[]; folders: string[]; commands: string[]; name?: string; about?: string }> {
  const counts = new Map<string, number>();
  const folders: string[] = [];
  const walk = async (dir: string, depth: number) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') && e.name !== '.github') continue;
      if (e.isDirectory() && !SKIP.has(e.name)) {
        if (depth === 0) folders.push(e.name);
        if (depth < 3) await walk(path.join(dir, e.name), depth + 1);
      } else if (e.isFile()) {
        const lang = LANGUAGES[path.extname(e.name)];
        if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
      }
    }
  };
  await walk(root, 0);
  const commands: string[] = [];
  let name: string | undefined;
  let about: string | undefined;
  // Regular files only: a FIFO or a link named package.json must not hang or lead /init elsewhere.
  const isFile = async (f: string) => lstat(path.join(root, f)).then((st) => st.isFile(), () => false);
  const pkg = (await isFile('package.json'))
    ? await readFile(path.join(root, 'package.json'), 'utf8').then((t) => JSON.parse(t) as { name?: string; description?: string; scripts?: Record<string, string> }).catch(() => undefined)
    : undefined;
  if (pkg) {
    name = pkg.name;
    about = pkg.description;
    for (const s of ['build', 'test', 'lint', 'typecheck', 'dev']) if (pkg.scripts?.[s]) commands.push(`npm ${s === 'test' ? 'test' : `run ${s}`}`);
  }
  const has = isFile;
  if (await has('Cargo.toml')) commands.push('cargo build', 'cargo test');
  if (await has('go.mod')) commands.push('go build ./...', 'go test ./...');
  if (await has('pyproject.toml')) commands.push('pytest');
  if (await has('Makefile')) commands.push('make');
  return { languages: [...counts].sort((a, b) => b[1] - a[1]).map(([l]) => l), folders: folders.sort(), commands, name, about };
}

/**
 * `/init`: writes a starter AGENTS.md from a look at the folder (languages, folders, the build and
 * test commands it finds) for the person to edit. An existing AGENTS.md is never overwritten.
 */
export async function initAgentsMd(root: string): Promise<{ created: boolean; file: string; text?: string }> {
  const file = path.join(root, 'AGENTS.md');
  const s = await survey(root);
  const text = [
    `# ${s.name ?? path.basename(root)}`,
    '',
    s.about ?? 'What this project is, in one or two sentences.',
    '',
    '## Layout',
    '',
    ...(s.folders.length ? s.folders.map((f) => `- \`${f}/\`: …`) : ['- …']),
    '',
    '## Commands',
    '',
    ...(s.commands.length ? s.commands.map((c) => `- \`${c}\``) : ['- build: …', '- test: …']),
    '',
    '## Conventions',
    '',
    `- Languages: ${s.languages.slice(0, 3).join(', ') || '…'}.`,
    '- Run the tests before you say a change is done.',
    '- Keep changes small; explain what you changed and why.',
    '',
    'Other files can be pulled in with `@path/to/file.md` (inside this folder).',
    '',
  ].join('\n');
  let fh;
  try {
    // O_EXCL: never overwrite what the person wrote, even if it appears meanwhile.
    fh = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { created: false, file };
    throw e;
  }
  try {
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
  return { created: true, file, text };
}
