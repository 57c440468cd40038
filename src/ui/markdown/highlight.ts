import type { highlight as Highlight, supportsLanguage as SupportsLanguage } from 'cli-highlight';
import { codeTheme } from '../theme/code-theme.js';

const ALIASES: Record<string, string> = { sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', js: 'javascript', ts: 'typescript', py: 'python', yml: 'yaml' };

interface Highlighter {
  highlight: typeof Highlight;
  supportsLanguage: typeof SupportsLanguage;
}

/**
 * cli-highlight brings highlight.js with every language (over 1 MB of code, registered at load):
 * loading it before the REPL's first frame made `adk` slower to open, so it loads after. Until it
 * is here code is plain; the transcript writes nothing to the scrollback before it is (Committed).
 */
let highlighter: Highlighter | undefined;
let loading: Promise<void> | undefined;

let failed = false;

/** Loads cli-highlight once; never rejects (code that cannot be highlighted is shown plain). */
export function loadHighlighter(): Promise<void> {
  return (loading ??= import('cli-highlight').then(
    (m) => {
      // A CommonJS package: Node gives its exports by name, esbuild's bundle only as the default export.
      const lib = [m, (m as { default?: unknown }).default].find(isHighlighter);
      if (lib) highlighter = lib;
      else failed = true;
    },
    () => {
      failed = true;
    },
  ));
}

const isHighlighter = (m: unknown): m is Highlighter =>
  typeof (m as Partial<Highlighter> | undefined)?.highlight === 'function' && typeof (m as Partial<Highlighter>).supportsLanguage === 'function';

/** Whether waiting for cli-highlight is over (loaded, or it could not be). */
export function highlighterLoaded(): boolean {
  return highlighter !== undefined || failed;
}

/** A live code block is highlighted again on every frame while it grows; recent results are kept. */
const cache = new Map<string, string>();
const CACHE_SIZE = 64;

/** ANSI-coloured code; plain text when the language is missing or unknown, or cli-highlight is not loaded yet. */
export function highlightCode(code: string, lang: string | undefined): string {
  const language = resolveLanguage(lang);
  if (!language || !highlighter) return code;
  const key = `${language}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string;
  try {
    out = highlighter.highlight(code, { language, ignoreIllegals: true, theme: codeTheme() });
  } catch {
    out = code;
  }
  cache.set(key, out);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return out;
}

/** The language highlight.js knows `lang` as; undefined when it knows none (or is not loaded yet). */
export function resolveLanguage(lang: string | undefined): string | undefined {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!name || !highlighter) return undefined;
  const resolved = ALIASES[name] ?? name;
  return highlighter.supportsLanguage(resolved) ? resolved : undefined;
}
