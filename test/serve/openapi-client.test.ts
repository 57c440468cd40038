import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/serve/openapi.js';
import { TOKEN, useServedApp } from './served-app.js';
import { fullSession } from './typed-client.js';

// Issue 34: a client generated from /openapi.json (openapi-typescript + openapi-fetch) type-checks
// and runs a full session; redocly lints the document clean, offline.
const run = promisify(execFile);
const serve = useServedApp();
const here = import.meta.dirname;
const root = join(here, '../..');

describe('/openapi.json as clients use it (issue 34)', () => {
  it('the generated types are up to date with the document the server serves', async () => {
    const { server, call } = await serve([]);
    const served = await (await call('/openapi.json')).json();
    expect(served).toEqual(openApiDocument('0.0.0-test', new URL(server.url).origin));
    // @ts-expect-error a script of this repo, without types
    const { apiClientTypes } = (await import('../../scripts/api-client-types.mjs')) as { apiClientTypes: (doc: unknown) => Promise<string> };
    const fresh = await apiClientTypes(openApiDocument('0.0.0'));
    expect(fresh, 'the API changed: npm run build && node scripts/api-client-types.mjs').toBe(readFileSync(join(here, 'generated/adk-api.ts'), 'utf8'));
  });

  it('the typed client type-checks under strict TypeScript (its @ts-expect-error lines need real types)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adk-typed-client-'));
    const config = { compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: true }, files: [join(here, 'typed-client.ts')] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const result = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')]).catch((e: { stdout: string }) => e);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('runs a full session: create, a streamed message, its approval answered, a turn cancelled without a body', async () => {
    const { server } = await serve([
      { content: 'Making it.', toolCalls: [{ id: 'c1', name: 'touch', arguments: { name: 'a.txt' } }] },
      { content: 'Made it.' },
      { content: 'one two three four five six seven eight nine ten', chunkDelayMs: 60 },
    ]);
    const trace = await fullSession(server.url, TOKEN);
    expect(trace.events).toEqual(expect.arrayContaining(['session', 'delta', 'message', 'tool_call', 'interrupt', 'done']));
    expect(trace.asked).toMatchObject([{ kind: 'approval', tool: 'touch', arguments: { name: 'a.txt' } }]);
    expect(trace.answered).toBe('completed');
    expect(trace.cancelled).toBe(true);
    expect([trace.after, trace.resumable]).toEqual(['cancelled', true]);
  });

  it('redocly lints the document with no problem (offline)', async () => {
    const { call } = await serve([]);
    const dir = mkdtempSync(join(tmpdir(), 'adk-openapi-'));
    writeFileSync(join(dir, 'openapi.json'), await (await call('/openapi.json')).text());
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    const out = await run(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--format=json', join(dir, 'openapi.json')], { env, cwd: dir }).catch((e: { stdout: string; stderr: string }) => e);
    const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: Array<{ ruleId: string; message: string }> };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
