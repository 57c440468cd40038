import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/core/store/redact.js';
import { StreamRedactor } from '../../src/core/store/stream-redactor.js';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer } from '../cli/helpers.js';
import { TestEditor } from '../support/acp-editor.js';

// Issue 42, item 8: streamed deltas were redacted chunk by chunk, so a secret the model wrote split
// across two deltas reached JSON Lines, ACP and the screen whole (each piece alone is no secret).
const server = useServer();
const KEY = 'sk-Str3amSplit+Key/Qw9';

/** A small seeded generator: the same splits on every run. */
function rng(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
}

function splitAtRandom(text: string, next: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(next() * 7);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Every 10-character piece of the key's common forms: none may be in the joined output. */
const FORMS = [KEY, KEY.toUpperCase(), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex'), encodeURIComponent(KEY)];
const leaks = (text: string) => FORMS.flatMap((f) => Array.from({ length: f.length - 9 }, (_, i) => f.slice(i, i + 10))).filter((p) => text.includes(p));

describe('StreamRedactor', () => {
  it('a secret split anywhere across deltas, in any of its forms, never comes out whole; the rest comes out as it was', () => {
    const next = rng(42);
    for (let round = 0; round < 300; round++) {
      const form = FORMS[round % FORMS.length]!;
      const text = `round ${round}: the key is ${form}, again ${KEY.slice(0, 5)}… and ${form} end`;
      const r = new StreamRedactor([KEY]);
      const joined = splitAtRandom(text, next).map((p) => r.push(p)).join('') + r.flush();
      expect(leaks(joined), text).toEqual([]);
      expect(joined).toBe(redactSecrets(text, [KEY]));
    }
  });

  it('holds back no more than a possible start of a secret: ordinary text passes at once', () => {
    const r = new StreamRedactor([KEY]);
    expect(r.push('hello world, ')).toBe('hello world, ');
    expect(r.push('the key sk-Str')).toBe('the key ');
    expect(r.push('3amSplit+Key/Qw9 and more')).toBe('[REDACTED] and more');
    expect(r.push(' s')).toBe(' ');
    expect(r.flush()).toBe('s');
    // No secrets: pieces pass untouched.
    expect(new StreamRedactor([]).push('sk-Str')).toBe('sk-Str');
  });
});

describe('a secret the model streams in pieces', () => {
  const reply = { content: `Here it is: ${KEY} (done).`, reasoning: `I will print ${KEY} now.`, chunkSize: 5 };

  it('adk run --json: no delta or thought line, joined, holds it; text mode neither', async () => {
    const home = tempHome();
    const ws = tempDir('adk-split-ws-');
    const env = serverEnv(server(), KEY, home);
    server().enqueue(reply);
    const r = await expectExit(['run', '--json', 'say it'], 0, { env, cwd: ws });
    const deltas = ofType(r.lines, 'delta').map((d) => d.content as string).join('');
    const thoughts = ofType(r.lines, 'thought').map((d) => d.content as string).join('');
    expect(deltas).toBe('Here it is: [REDACTED] (done).');
    expect(thoughts).toBe('I will print [REDACTED] now.');
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    server().enqueue(reply);
    const text = await expectExit(['run', 'say it'], 0, { env, cwd: ws });
    expect(text.stdout).toContain('Here it is: [REDACTED] (done).');
    expect(leaks(text.stdout + text.stderr)).toEqual([]);
  }, 60_000);

  it('adk acp: the agent message chunks the editor gets, joined, do not hold it', async () => {
    const ws = realpathSync(tempDir('adk-split-acp-'));
    const home = tempHome();
    server().enqueue(reply);
    const e = new TestEditor({ cwd: ws, env: { ...serverEnv(server(), KEY, home), ADK_SHELL_SANDBOX: 'off' } });
    try {
      await e.initialize();
      const { sessionId } = await e.agent.request('session/new', { cwd: ws, mcpServers: [] });
      await e.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say it' }] });
      expect(e.text(sessionId)).toBe('Here it is: [REDACTED] (done).');
      expect(leaks(JSON.stringify(e.updates))).toEqual([]);
    } finally {
      await e.close();
    }
  }, 60_000);
});
