import { describe, expect, it } from 'vitest';
import { expectExit, ofType, tempDir, tempHome, writeAgentsFile } from '../cli/helpers.js';
import { useAnthropicServer } from '../support/anthropic-server.js';
import { useOpenAIServer } from '../support/openai-server.js';
import { useReplayServer } from '../support/replay-server.js';
import { trustAgentsFile } from '../support/trust.js';
import { answer, expectPartsSent, partsEnv, partsTeam, PDF_PATH, PNG_PATH, PROVIDERS, requestCount, type Servers } from './wire.js';

// `adk run --file PATH` (repeatable): the image and the PDF reach each provider in its own format.
const s = {} as Servers;
useOpenAIServer((x) => (s.openai = x));
useAnthropicServer((x) => (s.anthropic = x));
useReplayServer((x) => (s.replay = x));

function setup() {
  const dir = tempDir();
  const file = writeAgentsFile(dir, partsTeam(s));
  const home = tempHome();
  trustAgentsFile(home, file);
  return { dir, file, env: { ...partsEnv, ADK_HOME: home, ADK_MAX_RETRIES: '0' } };
}

describe('adk run --file', () => {
  for (const p of PROVIDERS) {
    it(`sends a PNG and a PDF to ${p} in its format`, async () => {
      const { dir, file, env } = setup();
      answer(s, p);
      const r = await expectExit(['run', '--agents', file, '--agent', p, '--json', '--file', PNG_PATH, '--file', PDF_PATH, 'What is in these?'], 0, { env, cwd: dir });
      expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'completed' });
      expect(requestCount(s)).toBe(1);
      expectPartsSent(s, p, 'What is in these?');
    });
  }

  it('a model declared `vision: false` is refused before any request; a bad file is a usage error', async () => {
    const { dir, file, env } = setup();
    const r = await expectExit(['run', '--agents', file, '--agent', 'blind', '--json', '--file', PNG_PATH, 'What is in it?'], 1, { env, cwd: dir });
    expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'error' });
    expect(r.stdout + r.stderr).toContain('model my-text-model does not take images: nothing was sent');
    expect(requestCount(s)).toBe(0);

    const missing = await expectExit(['run', '--agents', file, '--file', `${dir}/nope.png`, 'hi'], 2, { env, cwd: dir });
    expect(missing.stderr).toContain(`--file ${dir}/nope.png: cannot read it (ENOENT)`);
    const txt = await expectExit(['run', '--agents', file, '--file', file, 'hi'], 2, { env, cwd: dir });
    expect(txt.stderr).toContain('--file agents.yaml: only .png, .jpg, .jpeg, .webp, .gif and .pdf files can be attached');
    expect(requestCount(s)).toBe(0);
  });
});
