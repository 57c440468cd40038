import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/web/markdown.js';

// Issue 17: model text in the web UI is markdown, never HTML: no tag or script from a model runs.
describe('the web UI markdown', () => {
  it('shows raw HTML as text, keeps links to http(s), drops images', () => {
    const html = renderMarkdown('**hi** <img src=x onerror="alert(1)"> [a](javascript:alert(1)) [b](https://example.com) ![x](http://evil/x.png)\n\n<script>alert(1)</script>');
    expect(html).toContain('<strong>hi</strong>');
    expect(html).not.toMatch(/<img|<script|javascript:/i);
    expect(html).toContain('&lt;img');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('href="#"');
  });

  it('text after an inline tag is escaped too (marked treats it as already escaped)', () => {
    const html = renderMarkdown('<code> <meta/http-equiv=refresh/content=0;url=//evil> and <div/style=position:fixed;inset:0>');
    expect(html).not.toMatch(/<meta|<div/i);
    expect(html).toContain('&lt;meta');
  });
});

// Issue 34: tables in a scrolling box with their alignment, code highlighted with a copy button.
describe('the web UI markdown, finished', () => {
  it('a table keeps its column alignment in a box of its own; a code block is highlighted, named and copyable', () => {
    const html = renderMarkdown('| name | size |\n|:---|---:|\n| a.txt | 12 |\n\n```ts\nconst x: number = 1;\n```');
    expect(html).toMatch(/^<div class="table-wrap"><table>/);
    expect(html).toContain('<th class="align-left">name</th><th class="align-right">size</th>');
    expect(html).toContain('<td class="align-right">12</td>');
    expect(html).toContain('<span class="code-lang">ts</span>');
    expect(html).toContain('<button type="button" class="copy" aria-label="copy code">Copy</button>');
    expect(html).toMatch(/<span class="hljs-keyword">const<\/span>/);
  });

  it('code is escaped by the highlighter, whatever the language says', () => {
    const html = renderMarkdown('```"><img src=x onerror=alert(1)>\n<script>alert(1)</script>\n```');
    expect(html).not.toMatch(/<img|<script/i);
    expect(html).toMatch(/&lt;.*script.*&gt;/);
  });
});
