import { Marked } from 'marked';

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
  },
});

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markdown to HTML with no raw HTML, scripts or foreign link schemes. */
export function renderMarkdown(text: string): string {
  return marked.parse(text, { async: false }) as string;
}
