import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useServer } from '../cli/helpers.js';
import { ADK_BIN, runCli } from '../support/cli.js';
import { serveEnv, startServeProcess } from './serve-process.js';

// Issue 28, HIGH 3 and MEDIUM 4: `adk serve` wants credentials from every client. Another local
// account (or a container sharing the network namespace) gets 401 and sees no session; the
// CLI's sessions are not served unless shared; DELETE does not pull a session from under a turn.
const model = useServer();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
const isRoot = process.getuid?.() === 0;

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'adk-serve-auth-'));
  // Another account may walk into the folder (as into a shared /tmp), not read the 0600 files in it.
  chmodSync(home, 0o755);
  return home;
}

/** Runs `script` with node as uid/gid 65534 (nobody): another local account. Resolves with its stdout. */
function asNobody(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], { timeout: 15_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim())));
  });
}

const probe = (base: string) => `
  const go = async (path, init) => { try { const r = await fetch('${base}' + path, init); return r.status; } catch (e) { return e.cause?.code ?? e.message; } };
  (async () => {
    const create = await go('/v1/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const list = await go('/v1/sessions');
    const deer = await go('/api/chat/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[{"role":"user","content":"id"}],"thread_id":"x"}' });
    const guessed = await go('/t/guessed-token/v1/sessions');
    console.log(JSON.stringify({ create, list, deer, guessed }));
  })();`;

describe('adk serve wants credentials from every client', () => {
  it.runIf(isRoot)('another local account without the token gets 401 everywhere; with it (header or path) the API works', async () => {
    const home = newHome();
    const { base, url, token, log } = await startServeProcess(home, serveEnv(home, model().url), children);
    expect(log()).not.toContain(token);
    const tokenFile = join(home, 'adk', 'serve-token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await asNobody(probe(base)))).toEqual({ create: 401, list: 401, deer: 401, guessed: 401 });
    // The other account cannot read the token either.
    expect(await asNobody(`try { require('fs').readFileSync('${tokenFile}'); console.log('READ') } catch (e) { console.log(e.code) }`)).toBe('EACCES');

    const header = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect(header.status).toBe(201);
    expect((await fetch(`${url}/v1/sessions`)).status).toBe(200);
    // The API's description needs no token (the page's own files neither: they hold no data).
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
  });

  it.runIf(isRoot)('--socket: a 0600 Unix socket; its owner talks to it without a token, another account cannot connect', async () => {
    const home = newHome();
    const sock = join(home, 'adk.sock');
    const child = spawn(process.execPath, [ADK_BIN, 'serve', '--socket', sock], { cwd: home, env: serveEnv(home, model().url), stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr!.on('data', (d) => ((err += d), /listening on unix:/.test(err) && resolve()));
      child.once('exit', () => reject(new Error(err)));
    });
    expect(statSync(sock).mode & 0o777).toBe(0o600);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ socketPath: sock, path: '/v1/sessions', method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
      req.on('error', reject).end('{}');
    });
    expect(status).toBe(201);
    const other = await asNobody(`require('http').request({ socketPath: '${sock}', path: '/v1/sessions' }, (r) => console.log(r.statusCode)).on('error', (e) => console.log(e.code)).end()`);
    expect(other).toBe('EACCES');
  });

  it('--cors null is refused; a short ADK_SERVE_TOKEN is refused; --no-token says at start what it allows', async () => {
    const home = newHome();
    const short = await runCli(['serve', '--port', '0'], { env: { ...serveEnv(home, model().url), ADK_SERVE_TOKEN: 'abc123' } });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/shorter than 16 characters/);
    const r = await runCli(['serve', '--port', '0', '--cors', 'null'], { env: serveEnv(home, model().url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cors null/);
    const open = await startServeProcess(home, serveEnv(home, model().url), children, ['--no-token']);
    expect(open.log()).toMatch(/--no-token: every local account/);
  });
});

describe('adk serve shows only its own sessions, and DELETE honours the lease', () => {
  it('a CLI session is not listed or readable until shared; DELETE while a CLI turn holds it is 409, after it 204', async () => {
    const home = newHome();
    const env = serveEnv(home, model().url);
    model().onRequest(() => ({ content: 'cli answer' }));
    const first = await runCli(['run', '--json', 'a private question'], { env, cwd: home });
    expect(first.code).toBe(0);
    const cliId = first.lines.find((l: any) => l.type === 'session').sessionId as string;

    const { url } = await startServeProcess(home, env, children);
    const list = async () => ((await (await fetch(`${url}/v1/sessions`)).json()) as { sessions: Array<{ id: string }> }).sessions.map((s) => s.id);
    expect(await list()).not.toContain(cliId);
    expect((await fetch(`${url}/v1/sessions/${cliId}`)).status).toBe(404);
    expect((await fetch(`${url}/v1/sessions/${cliId}`, { method: 'DELETE' })).status).toBe(404);

    expect((await runCli(['sessions', 'share', cliId], { env, cwd: home })).code).toBe(0);
    expect(await list()).toContain(cliId);

    // A CLI turn on it holds the lease while the model streams slowly.
    model().onRequest(() => ({ content: 'one two three four five six seven eight', chunkSize: 3, chunkDelayMs: 150 }));
    const asked = model().chatRequests.length;
    const turn = runCli(['run', '--session', cliId, '--json', 'more'], { env, cwd: home });
    // The turn holds the lease once its model request arrives (a fixed wait lost that race under load).
    for (let i = 0; i < 300 && model().chatRequests.length === asked; i++) await new Promise((r) => setTimeout(r, 50));
    const held = await fetch(`${url}/v1/sessions/${cliId}`, { method: 'DELETE' });
    expect(held.status).toBe(409);
    expect(((await held.json()) as any).error.code).toBe('session_in_use');
    expect((await turn).code).toBe(0);
    const shown = await runCli(['sessions', 'show', cliId, '--json'], { env, cwd: home });
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).messages.at(-1).content).toContain('eight');
    expect((await fetch(`${url}/v1/sessions/${cliId}`, { method: 'DELETE' })).status).toBe(204);
  });
});
