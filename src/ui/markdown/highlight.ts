import { highlight, supportsLanguage } from 'cli-highlight';
import { codeTheme } from '../theme/code-theme.js';

const ALIASES: Record<string, string> = { sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', js: 'javascript', ts: 'typescript', py: 'python', yml: 'yaml' };

/** A live code block is highlighted again on every frame while it grows; recent results are kept. */
const cache = new Map<string, string>();
const CACHE_SIZE = 64;

/** ANSI-coloured code; plain text when the language is missing or unknown. */
export function highlightCode(code: string, lang: string | undefined): string {
  const language = resolveLanguage(lang);
  if (!language) return code;
  const key = `${language}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string;
  try {
    out = highlight(code, { language, ignoreIllegals: true, theme: codeTheme() });
  } catch {
    out = code;
  }
  cache.set(key, out);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return out;
}

export function resolveLanguage(lang: string | undefined): string | undefined {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!name) return undefined;
  const resolved = ALIASES[name] ?? name;
  return supportsLanguage(resolved) ? resolved : undefined;
}
