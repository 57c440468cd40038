import { Parser } from 'htmlparser2';
import { cancelledBy } from '../../errors.js';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
const BLOCKS = new Set(['p', 'div', 'section', 'article', 'header', 'footer', 'main', 'nav', 'aside', 'ul', 'ol', 'table', 'tr', 'blockquote', 'pre', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Parsed this much at a time, yielding in between, so a cancel is seen within milliseconds. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A page reduced to readable text with a real streaming HTML parser (htmlparser2): linear in the
 * page whatever it holds (80 KB of `<` took 11 s with the regexes this replaced). Enough for a
 * model to read a page, not a renderer.
 */
export async function htmlToText(html: string, signal?: AbortSignal): Promise<string> {
  const out: string[] = [];
  let title = '';
  let inTitle = false;
  let skipDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true;
        if (SKIPPED.has(name)) skipDepth++;
        if (skipDepth) return;
        if (name === 'br') out.push('\n');
        else if (name === 'li') out.push('\n- ');
        else if (/^h[1-6]$/.test(name)) out.push(`\n\n${'#'.repeat(Number(name[1]))} `);
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (skipDepth) return;
        else if (BLOCKS.has(name)) out.push('\n\n');
        else if (name === 'td' || name === 'th') out.push('\t');
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (!skipDepth) out.push(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  for (let i = 0; i < html.length; i += CHUNK_CHARS) {
    if (signal?.aborted) throw cancelledBy(signal);
    parser.write(html.slice(i, i + CHUNK_CHARS));
    if (i + CHUNK_CHARS < html.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  parser.end();
  const body = out
    .join('')
    .replace(/[ \t\f\v\u00a0]+/g, (m) => (m.includes('\t') ? '\t' : ' '))
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const t = title.replace(/\s+/g, ' ').trim();
  return t ? `${t}\n\n${body}` : body;
}
