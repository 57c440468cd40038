import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingInterrupt } from '../../src/core/store/session-record.js';
import { loadQueueKey, QUEUE_KEY_FILE } from '../../src/serve/queue/queue-key.js';
import { answeredInterrupts, answersProblem, canonicalJson, signTurnJob, verifyTurnJob, type TurnJobBody } from '../../src/serve/queue/turn-job.js';

// Issue 28: queued turns are signed with a key only adk serve and adk worker hold; a worker runs
// answers only against the interrupts they were given for.
const KEY = Buffer.from('k'.repeat(64));
const pending: PendingInterrupt[] = [
  { id: 'int-1', address: 'agent:chat;tool:call_1', kind: 'approval', tool: 'shell', callId: 'call_1', arguments: { command: 'ls -la', timeout: 5 }, message: 'Run shell?' },
  { id: 'int-2', address: 'agent:chat;tool:call_2', kind: 'input', message: 'Which file?' },
];
const body: TurnJobBody = {
  sessionId: 's1',
  turnId: 't1',
  claim: 't1@1',
  after: 't0',
  step: { targets: { 'int-1': { approved: true } }, grants: ['shell'] },
  answered: answeredInterrupts(pending, { 'int-1': { approved: true } }),
};
/** As BullMQ hands it to the worker: stored as JSON, read back. */
const stored = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('turn job signatures', () => {
  it('a signed job verifies after a trip through JSON, whatever its key order', () => {
    const job = signTurnJob(body, KEY);
    expect(job.sig).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyTurnJob(stored(job), KEY)).toBe(true);
    const reordered = { sig: job.sig, step: { grants: ['shell'], targets: { 'int-1': { approved: true } } }, answered: job.answered, after: 't0', claim: 't1@1', turnId: 't1', sessionId: 's1' };
    expect(verifyTurnJob(reordered, KEY)).toBe(true);
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 2 }] })).toBe('{"a":[{"c":2}],"b":1}');
    // The key is in no part of the job.
    expect(JSON.stringify(job)).not.toContain(KEY.toString());
  });

  it('a tampered body, another key or a missing or malformed signature fails', () => {
    const job = stored(signTurnJob(body, KEY));
    const tampered = [
      { ...job, sessionId: 's2' },
      { ...job, step: { targets: { 'int-1': { approved: true, arguments: { command: 'rm -rf ~' } } }, grants: ['shell'] } },
      { ...job, answered: [{ ...job.answered![0]!, arguments: { command: 'rm -rf ~' } }] },
      { ...job, extra: 1 },
      (({ answered: _a, ...rest }) => rest)(job),
    ];
    for (const t of tampered) expect(verifyTurnJob(t, KEY)).toBe(false);
    expect(verifyTurnJob(job, Buffer.from('x'.repeat(64)))).toBe(false);
    const { sig, ...unsigned } = job;
    expect(verifyTurnJob(unsigned, KEY)).toBe(false);
    for (const bad of ['', sig.slice(2), `${sig}00`, sig.toUpperCase(), 'z'.repeat(64), 42]) expect(verifyTurnJob({ ...unsigned, sig: bad }, KEY)).toBe(false);
    for (const notAJob of [null, undefined, 'job', [], [job]]) expect(verifyTurnJob(notAJob, KEY)).toBe(false);
    // A signature made over something else (an empty body) never fits.
    expect(verifyTurnJob(signTurnJob({} as TurnJobBody, KEY), KEY)).toBe(false);
  });
});

describe('answers in a job against the session now', () => {
  it('pass when every answer is a pending interrupt with the same tool and arguments, and every grant one it approves', () => {
    expect(answersProblem(pending, body)).toBeUndefined();
    expect(answersProblem(pending, { step: { content: 'hello' } })).toBeUndefined();
    const input = { step: { targets: { 'int-2': 'a.txt' } }, answered: answeredInterrupts(pending, { 'int-2': 'a.txt' }) };
    expect(answersProblem(pending, input)).toBeUndefined();
  });

  it('refuse anything else', () => {
    const refused = (pendingNow: PendingInterrupt[], job: Pick<TurnJobBody, 'step' | 'answered'>) => answersProblem(pendingNow, job);
    // The session no longer waits on it (it was answered; an old job played again).
    expect(refused([], body)).toMatch(/"int-1" is not pending/);
    // Same id, another command (or another tool): not the call that was approved.
    expect(refused([{ ...pending[0]!, arguments: { command: 'rm -rf ~', timeout: 5 } }], body)).toMatch(/tool or arguments differ/);
    expect(refused([{ ...pending[0]!, tool: 'write_file' }], body)).toMatch(/tool or arguments differ/);
    // Asked again as "may already have run": an approval given before that does not answer it.
    expect(refused([{ ...pending[0]!, mayHaveRun: true }], body)).toMatch(/tool or arguments differ/);
    // An answer without the call it answers, or by a prefix of the id.
    expect(refused(pending, { step: body.step })).toMatch(/without the call/);
    expect(refused(pending, { step: { targets: { 'int': { approved: true } } }, answered: body.answered })).toMatch(/"int" is not pending/);
    // "Always allow" for a tool this step does not approve.
    expect(refused(pending, { ...body, step: { targets: { 'int-1': { approved: true } }, grants: ['write_file'] } })).toMatch(/always allow" "write_file"/);
    expect(refused(pending, { ...body, step: { targets: { 'int-1': { approved: false } }, grants: ['shell'] } })).toMatch(/always allow" "shell"/);
    expect(refused(pending, { step: { targets: {}, grants: ['shell'] } })).toMatch(/always allow" "shell"/);
  });
});

describe('the queue key', () => {
  const fresh = () => join(mkdtempSync(join(tmpdir(), 'adk-qkey-')), 'adk');

  it('is made once under ADK_HOME (0600 in a 0700 folder, nothing left behind) and read back by every process', async () => {
    const home = fresh();
    const key = loadQueueKey({ ADK_HOME: home });
    expect(key.toString()).toMatch(/^[0-9a-f]{64}$/);
    const file = join(home, QUEUE_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(readdirSync(home)).toEqual([QUEUE_KEY_FILE]);
    expect(loadQueueKey({ ADK_HOME: home }).equals(key)).toBe(true);

    // Processes starting together on an empty ADK_HOME end up with one key.
    const racing = fresh();
    // (the built module: the tests run after the build)
    const moduleUrl = new URL('../../dist/serve/queue/queue-key.js', import.meta.url).href;
    const script = `const { loadQueueKey } = await import(${JSON.stringify(moduleUrl)}); process.stdout.write(loadQueueKey({ ADK_HOME: ${JSON.stringify(racing)} }).toString());`;
    const runs = Array.from({ length: 4 }, () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(err))));
      }),
    );
    const keys = await Promise.all(runs);
    expect(new Set(keys).size).toBe(1);
    expect(readFileSync(join(racing, QUEUE_KEY_FILE), 'utf8').trim()).toBe(keys[0]);
    expect(readdirSync(racing)).toEqual([QUEUE_KEY_FILE]);
  });

  it('ADK_QUEUE_KEY wins and writes nothing; a short key or a file others can read is refused without showing the key', () => {
    const home = fresh();
    const given = 'a-key-shared-by-every-machine-0123456789';
    expect(loadQueueKey({ ADK_HOME: home, ADK_QUEUE_KEY: given }).toString()).toBe(given);
    expect(existsSync(home)).toBe(false);
    expect(() => loadQueueKey({ ADK_HOME: home, ADK_QUEUE_KEY: 'short-secret' })).toThrow(/at least 32 characters/);
    try {
      loadQueueKey({ ADK_HOME: home, ADK_QUEUE_KEY: 'short-secret' });
    } catch (e) {
      expect((e as Error).message).not.toContain('short-secret');
    }
    // The file's text, copied into ADK_QUEUE_KEY on another machine, is the same key.
    const made = loadQueueKey({ ADK_HOME: home });
    expect(loadQueueKey({ ADK_QUEUE_KEY: made.toString() }).equals(made)).toBe(true);
    const file = join(home, QUEUE_KEY_FILE);
    chmodSync(file, 0o644);
    expect(() => loadQueueKey({ ADK_HOME: home })).toThrow(/open to other users \(mode 644\): chmod 600/);
    writeFileSync(file, 'tiny\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(() => loadQueueKey({ ADK_HOME: home })).toThrow(/shorter than 32 characters/);
  });
});
