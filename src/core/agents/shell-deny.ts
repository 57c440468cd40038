// What a deny rule must see of a shell command line. Allowing errs narrow (a pattern never matches a
// line with operators); denying errs wide: every simple command of the line, however it is spelled,
// and a line whose commands cannot be seen (text piped into a shell, `eval $X`) counts as matching.

/** Runs the rest of its words as a command. */
const WRAPPERS = new Set(['sudo', 'doas', 'env', 'command', 'exec', 'builtin', 'nice', 'nohup', 'time', 'timeout', 'xargs', 'stdbuf', 'ionice', 'chroot', 'strace', 'ltrace', 'watch', 'parallel', 'flock', 'setsid', 'unbuffer', 'chrt', 'taskset', 'runuser', 'su', 'script']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'case', 'esac', '!', '{', '}', '(', ')', '((', '))', '[[', ']]']);

export interface DenyView {
  /** Each simple command as words joined by one space, quotes and escapes removed, the program also by its base name. */
  commands: string[];
  /** Some command's text cannot be known here (`… | sh`, `eval "$X"`, `$CMD args`). */
  opaque: boolean;
}

export function denyView(line: string): DenyView {
  const view: DenyView = { commands: [], opaque: false };
  walk(line, view, 0);
  return view;
}

function walk(line: string, view: DenyView, depth: number): void {
  if (depth > 6) {
    view.opaque = true;
    return;
  }
  // Substitutions (`$(…)`, backticks, `<(…)`, `>(…)`) run command lines of their own.
  for (const m of line.matchAll(/[$<>]\(([^()]*(?:\([^()]*\)[^()]*)*)\)|`([^`]*)`/g)) walk(m[1] ?? m[2] ?? '', view, depth + 1);
  for (const piece of line.split(/\|\||&&|[;|&\n]/)) command(words(piece), view, depth);
}

function command(tokens: string[], view: DenyView, depth: number): void {
  if (depth > 64) {
    view.opaque = true;
    return;
  }
  // A subshell's or group's opening bracket may touch the program: `(rm x)`.
  tokens = tokens.map((t, k) => (k === 0 || /^[({]/.test(tokens[k - 1] ?? '') || KEYWORDS.has(tokens[k - 1] ?? '') ? t.replace(/^[({]+(?=.)/, '') : t));
  let i = 0;
  // Keywords, redirections and assignments before the program.
  for (; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (KEYWORDS.has(t) || /^\d*[<>]/.test(t) || /^[A-Za-z_]\w*=/.test(t)) {
      if (/^\d*[<>]{1,2}&?$/.test(t)) i++; // `> file`: the file too
      continue;
    }
    if (t === 'for' || t === 'select') return; // `for x in …`: the body is its own piece (`do …`)
    break;
  }
  const rest = tokens.slice(i);
  if (!rest.length) return;
  const program = rest[0]!.replace(/^.*\//, '');
  if (/^\$/.test(rest[0]!)) view.opaque = true;
  view.commands.push(rest.join(' '), [program, ...rest.slice(1)].join(' '));
  if (WRAPPERS.has(program)) {
    // Whatever its options are, one of the later words starts the command it runs: each is tried as
    // a start (cheaply, as text), and the first that is not an option is read as a command itself
    // (a wrapper inside, `sh -c`). Once per word, so `sudo sudo sudo …` costs no more than its length.
    for (let k = 1; k < rest.length; k++) {
      const tail = rest.slice(k);
      view.commands.push(tail.join(' '), [tail[0]!.replace(/^.*\//, ''), ...tail.slice(1)].join(' '));
    }
    const first = rest.findIndex((w, k) => k > 0 && !w.startsWith('-'));
    if (first > 0) command(rest.slice(first), view, depth + 1);
  }
  if (program === 'eval') walk(rest.slice(1).join(' '), view, depth + 1);
  if (SHELLS.has(program)) {
    const c = rest.findIndex((w, k) => k > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
    if (c > 0 && rest[c + 1] !== undefined) walk(rest[c + 1]!, view, depth + 1);
    // A shell reading its commands from stdin (`… | sh`, `sh -s`): they are not on this line.
    else if (rest.slice(1).every((w) => w.startsWith('-'))) view.opaque = true;
  }
}

/** Words as the shell splits them: quotes and backslashes removed (`'rm'`, `\rm`, `"a b"`). */
function words(text: string): string[] {
  const out: string[] = [];
  let word = '';
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      word += text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
      started = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        word += text[j];
      }
      i = j;
      started = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (started) out.push(word);
  return out;
}
