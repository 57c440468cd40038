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
