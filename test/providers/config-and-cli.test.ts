import { describe, expect, it } from 'vitest';
import { formatProblems, validateConfig } from '../../src/core/config/index.js';
import { modelFromConfig } from '../../src/core/config/model-from-config.js';
import { AnthropicChatModel } from '../../src/core/models/anthropic.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { expectExit, ofType, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';
import { chunk, sseOf } from './helpers.js';

const server = useServer();

const team = (model: string) => `version: 1
models:
  main: ${model}
agents:
  helper:
    model: main
    instruction: Help.
    tools: [current_time]
`;

describe('models: in agents.yaml', () => {
  it('accepts every provider and per-model key, and builds the right model', () => {
    const r = validateConfig(
      {
        text: team(`{ provider: mistral, model: mistral-small-latest, temperature: 0.3, top_p: 0.9, max_tokens: 500, stop: [END], seed: 1,
    parallel_tool_calls: false, stream_usage: false, headers: { X-Org: acme }, query: { tenant: a }, extra_body: { safe_prompt: true },
    timeout_ms: 1000, idle_timeout_ms: 500, context_window: 32000 }`),
      },
      { env: {} },
    );
    expect(r.problems, formatProblems(r.problems)).toEqual([]);
    const m = modelFromConfig(r.config!.models.get('main')!, { MISTRAL_API_KEY: 'mk-1234' });
    expect(m).toBeInstanceOf(OpenAIChatModel);
    expect((m as OpenAIChatModel).baseURL).toBe('https://api.mistral.ai/v1');
    expect((m as OpenAIChatModel).profile.name).toBe('mistral');

    const a = validateConfig({ text: team('{ provider: anthropic, model: claude-sonnet-4-5 }') }, { env: {} });
    expect(modelFromConfig(a.config!.models.get('main')!, { ANTHROPIC_API_KEY: 'ak-1234' })).toBeInstanceOf(AnthropicChatModel);
    expect(() => modelFromConfig(a.config!.models.get('main')!, {})).toThrow(/ANTHROPIC_API_KEY is not set/);
  });

  it('names unknown keys and providers with did-you-mean, and Azure without base_url', () => {
    const r = validateConfig({ text: team('{ provider: olama, model: qwen3, idle_timout_ms: 5 }') }, { env: {} });
    expect(formatProblems(r.problems)).toContain("got 'olama' (did you mean 'ollama'?)");
    expect(formatProblems(r.problems)).toContain("unknown model key 'idle_timout_ms' (did you mean 'idle_timeout_ms'?)");
    const z = validateConfig({ text: team('{ provider: azure, model: gpt-5 }') }, { env: {} });
    expect(formatProblems(z.problems)).toMatch(/:3:\d+ .*provider 'azure' needs base_url/);
  });
});

describe('adk run --json with a provider profile', () => {
  it('a Mistral profile tool round-trip passes a server that enforces Mistral rules', async () => {
    server().onRequest((r) => {
      const msgs = r.body.messages as any[];
      if (r.body.stream_options) return { status: 422, errorBody: { object: 'error', message: 'stream_options: Extra inputs are not permitted', type: 'invalid_request_error' } };
      for (const m of msgs) for (const c of m.tool_calls ?? []) if (!/^[a-zA-Z0-9]{9}$/.test(c.id)) return { status: 400, errorBody: { object: 'error', message: `Tool call id was ${c.id} but must be a-z, A-Z, 0-9, with a length of 9.` } };
      return msgs.some((m) => m.role === 'tool') ? { content: 'It is 4 am.' } : { toolCalls: [{ id: 'call_zz_long_id', name: 'current_time', arguments: {} }] };
    });
    const dir = tempDir();
    const file = writeAgentsFile(dir, team(`{ provider: mistral, model: mistral-small, base_url: "${server().url}" }`));
    const home = tempHome();
    trustAgentsFile(home, file);
    const r = await expectExit(['run', '--agents', file, '--json', 'time?'], 0, { env: { MISTRAL_API_KEY: 'mk-test-1234', ADK_HOME: home }, cwd: dir });
    expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'completed', output: 'It is 4 am.' });
    expect(server().chatRequests[0]!.headers.authorization).toBe('Bearer mk-test-1234');
  });

  it('row 13: length and content_filter end the run incomplete: done says why, exit 1', async () => {
    for (const reason of ['length', 'content_filter']) {
      server().reset();
      server().enqueue({ sse: sseOf(chunk({ role: 'assistant', content: 'Partial answ' }), chunk({}, reason)) });
      const dir = tempDir();
      const file = writeAgentsFile(dir, team(`{ model: m, base_url: "${server().url}" }`));
      const home = tempHome();
      trustAgentsFile(home, file);
      const r = await expectExit(['run', '--agents', file, '--json', 'tell me'], 1, { env: { OPENAI_API_KEY: 'k-1234', ADK_HOME: home }, cwd: dir });
      expect(ofType(r.lines, 'done')[0]).toMatchObject({ status: 'incomplete', reason, output: 'Partial answ' });
      expect(r.stderr).toContain(`finish_reason: ${reason}`);
    }
  });
});

describe('a plain base URL gets the profile its host needs', () => {
  it('by host name for hosted providers, by port for Ollama and LM Studio', async () => {
    const { profileForURL } = await import('../../src/core/models/providers.js');
    const { modelFromEnv } = await import('../../src/core/models/from-env.js');
    const name = (u: string) => profileForURL(u).name;
    expect(name('https://api.mistral.ai/v1')).toBe('mistral');
    expect(name('https://api.groq.com/openai/v1')).toBe('groq');
    expect(name('https://generativelanguage.googleapis.com/v1beta/openai/')).toBe('gemini');
    expect(name('https://myres.openai.azure.com/openai/deployments/gpt')).toBe('azure');
    expect(name('http://localhost:11434/v1')).toBe('ollama');
    expect(name('http://127.0.0.1:1234/v1')).toBe('lmstudio');
    expect(name('http://gpu-box:8000/v1')).toBe('openai');
    expect(name('not a url')).toBe('openai');
    const m = modelFromEnv({ OPENAI_BASE_URL: 'https://api.mistral.ai/v1', OPENAI_API_KEY: 'k-1234', ADK_MODEL: 'mistral-small' });
    expect((m as OpenAIChatModel).profile.name).toBe('mistral');
  });
});

describe('adk models', () => {
  it("lists what the team's endpoint offers, as text and JSON", async () => {
    const env = { OPENAI_BASE_URL: server().url, OPENAI_API_KEY: 'k-1234', ADK_HOME: tempHome() };
    const text = await expectExit(['models'], 0, { env, cwd: tempDir() });
    expect(text.stdout).toContain(`default (openai, ${server().url}):\n  test-model\n`);
    const json = await expectExit(['models', '--json'], 0, { env, cwd: tempDir() });
    expect(json.lines.find((l: any) => l.entry === 'default')).toMatchObject({ provider: 'openai', models: ['test-model'] });
  });

  it('says which endpoint failed and exits 1', async () => {
    const r = await expectExit(['models'], 1, { env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k-1234', ADK_HOME: tempHome() }, cwd: tempDir() });
    expect(r.stderr).toMatch(/default \(openai, http:\/\/127\.0\.0\.1:9\/v1\): cannot reach the model endpoint/);
  });
});
