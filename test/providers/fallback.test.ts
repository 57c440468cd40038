import { describe, expect, it } from 'vitest';
import { useAnthropicServer, type AnthropicTestServer } from '../support/anthropic-server.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { expectExit, ofType, tempDir, tempHome, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { parseConfig } from '../../src/core/config/load.js';

// Issue 35, item 8: `fallback:` on a models entry, used once retries are spent on an unavailable provider.
let anthropic: AnthropicTestServer;
useAnthropicServer((s) => (anthropic = s));
let openai: OpenAITestServer;
beforeAll(async () => (openai = await startOpenAIServer()));
afterAll(() => openai.close());
beforeEach(() => openai.reset());

function team(fallbackLine: string) {
  const dir = tempDir();
  const file = writeAgentsFile(
    dir,
    `version: 1
models:
  claude: { provider: anthropic, model: claude-test-1, base_url: "${anthropic.url}"${fallbackLine} }
  backup: { provider: openai, model: gpt-backup, base_url: "${openai.url}" }
agents:
  helper: { model: claude, instruction: Help. }
`,
  );
  const home = tempHome();
  trustAgentsFile(home, file);
  const env = { ANTHROPIC_API_KEY: 'ak-test-1', OPENAI_API_KEY: 'sk-test-1', ADK_HOME: home, ADK_MAX_RETRIES: '2', ADK_RETRY_BASE_MS: '1' };
  return { dir, file, env };
}

const overloaded = { status: 529, errorType: 'overloaded_error', errorMessage: 'Overloaded' };

describe('fallback models', () => {
  it('the first model 529s past its retries, the fallback answers; the JSONL says which model answered', async () => {
    const { dir, file, env } = team(', fallback: [backup]');
    anthropic.enqueue(overloaded, overloaded, overloaded);
    openai.enqueue({ content: 'Answered by the backup.' });
    const r = await expectExit(['run', '--agents', file, '--json', 'hi'], 0, { env, cwd: dir });
    expect(anthropic.requests.filter((q) => q.path.startsWith('/v1/messages'))).toHaveLength(3);
    expect(ofType(r.lines, 'retry')).toHaveLength(2);
    expect(ofType(r.lines, 'fallback')).toEqual([expect.objectContaining({ from: 'claude-test-1', to: 'gpt-backup', error: expect.stringContaining('529') })]);
    expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'completed', output: 'Answered by the backup.' });
    expect(openai.chatRequests[0]!.body.model).toBe('gpt-backup');
  });

  it('--fallback on run does the same; a 4xx request error never falls back', async () => {
    const { dir, file, env } = team('');
    anthropic.enqueue(overloaded, overloaded, overloaded);
    openai.enqueue({ content: 'From the flag.' });
    const r = await expectExit(['run', '--agents', file, '--fallback', 'backup', '--json', 'hi'], 0, { env, cwd: dir });
    expect(ofType(r.lines, 'fallback')[0]).toMatchObject({ to: 'gpt-backup' });

    anthropic.reset();
    openai.reset();
    anthropic.enqueue({ status: 400, errorType: 'invalid_request_error', errorMessage: 'messages: text content blocks must be non-empty' });
    const bad = await expectExit(['run', '--agents', file, '--fallback', 'backup', '--json', 'hi'], 1, { env, cwd: dir });
    expect(ofType(bad.lines, 'fallback')).toEqual([]);
    expect(openai.chatRequests).toHaveLength(0);
    expect(ofType(bad.lines, 'done')[0]).toMatchObject({ status: 'error' });
  });

  it('a fallback that names no models entry is a config problem', () => {
    const yaml = `version: 1
models:
  claude: { provider: anthropic, model: claude-test-1, fallback: [bakup] }
  backup: { provider: openai, model: gpt-backup }
agents:
  helper: { model: claude, instruction: Help. }
`;
    expect(() => parseConfig(yaml)).toThrow(/undefined model 'bakup'.*did you mean 'backup'/s);
  });
});
