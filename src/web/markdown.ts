import { Marked } from 'marked';
import { highlight } from './highlight.js';

// Model text is untrusted: raw HTML in it is shown as text, never parsed; links keep to http(s).
const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    html: ({ text }) => escapeHtml(text),
    link({ href, text }) {
      const safe = /^https?:\/\//i.test(href) ? href : '#';
      return `<a href="${escapeHtml(safe)}" rel="noopener noreferrer" target="_blank">${escapeHtml(text)}</a>`;
    },
    image: ({ text }) => escapeHtml(`[image: ${text}]`),
    // marked passes text after an inline tag through as already escaped: escape it always.
    text(token) {
      return 'tokens' in token && token.tokens ? this.parser.parseInline(token.tokens) : escapeHtml(token.text);
    },
    // A code block: highlighted, its language named, and a copy button (TranscriptView handles clicks).
    code({ text, lang }) {
      const { html, language } = highlight(text, (lang ?? '').trim().split(/\s+/)[0] || undefined);
      return `<div class="code-block"><div class="code-bar"><span class="code-lang">${escapeHtml(language)}</span><button type="button" class="copy" aria-label="copy code">Copy</button></div><pre><code class="hljs">${html}</code></pre></div>`;
    },
    // A wide table scrolls inside its own box instead of widening the page.
    table(token) {
      const cell = (c: (typeof token.header)[number], tag: 'th' | 'td') => `<${tag}${c.align ? ` class="align-${c.align}"` : ''}>${this.parser.parseInline(c.tokens)}</${tag}>`;
      const head = `<tr>${token.header.map((c) => cell(c, 'th')).join('')}</tr>`;
      const rows = token.rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('');
      return `<div class="table-wrap"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>`;
    },
  },
});

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markdown to HTML with no raw HTML, scripts or foreign link schemes. */
export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false }) as string;
}
