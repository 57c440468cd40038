import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Hono } from 'hono';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json' };

/**
 * The built page (dist/web) at `/`. Its content security policy allows only its own scripts and
 * styles, so nothing a model writes into the page can run.
 */
export function addWebRoutes(app: Hono, root: string): void {
  const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  app.get('/', (c) => c.redirect('/index.html'));
  app.get('/:file{.+\\.(html|js|css|svg|json)}', async (c) => {
    const rel = normalize(c.req.path).replace(/^[/\\]+/, '');
    if (rel.split(sep).includes('..')) return c.notFound();
    try {
      const body = await readFile(join(root, rel));
      return c.body(body, 200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream', 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache' });
    } catch {
      return c.notFound();
    }
  });
}
