import { describe, expect, it } from 'vitest';
import { knownContextWindow } from '../../src/core/models/context-window.js';
import { OpenAIChatModel } from '../../src/core/models/openai.js';
import { formatContext } from '../../src/ui/components/StatusLine.js';
import { expectExit, ofType, tempDir, tempHome, useServer, writeAgentsFile } from '../cli/helpers.js';
import { trustAgentsFile } from '../support/trust.js';

// The context meter (issue 14's first piece): context windows per model, JSONL done.usage, the REPL's `ctx` figure.
const server = useServer();

describe('context windows and the meter', () => {
  it('knows common models, lets context_window win, and formats the meter', () => {
    expect(knownContextWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownContextWindow('openai/gpt-5-mini')).toBe(400_000);
    expect(knownContextWindow('claude-sonnet-4-5')).toBe(200_000);
    expect(knownContextWindow('my-local-finetune')).toBeUndefined();
    expect(new OpenAIChatModel({ model: 'gpt-4o', contextWindow: 4000 }).contextWindow).toBe(4000);
    expect(new OpenAIChatModel({ model: 'gpt-4o' }).contextWindow).toBe(128_000);
    expect(formatContext(2480, 4000)).toBe('ctx 62%');
    expect(formatContext(12_345, undefined)).toBe('ctx 12k');
    expect(formatContext(undefined, 4000)).toBeUndefined();
  });

  it('adk run --json reports contextTokens and contextWindow in done.usage', async () => {
    server().enqueue({ content: 'ok', usage: { promptTokens: 2400, completionTokens: 80 } });
    const dir = tempDir();
    const file = writeAgentsFile(dir, `version: 1\nmodels:\n  main: { model: m, base_url: "${server().url}", context_window: 4000 }\nagents:\n  helper: { model: main, instruction: Help. }\n`);
    const home = tempHome();
    trustAgentsFile(home, file);
    const r = await expectExit(['run', '--agents', file, '--json', 'hi'], 0, { env: { OPENAI_API_KEY: 'k-1234', ADK_HOME: home }, cwd: dir });
    expect(ofType(r.lines, 'done')[0].usage).toEqual({ promptTokens: 2400, completionTokens: 80, contextTokens: 2480, contextWindow: 4000, byModel: { m: { promptTokens: 2400, completionTokens: 80 } } });
  });
});

describe('usage when the server reports none', () => {
  it('is estimated with a real tokenizer and marked, streamed or not', async () => {
    const { chunk, replay, sseOf } = await import('./helpers.js');
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    server().enqueue({ sse: sseOf(chunk({ role: 'assistant', content: text }), chunk({}, 'stop')) });
    const m = new OpenAIChatModel({ model: 'gpt-4o', baseURL: server().url });
    const streamed = (await replay(m, 'Tell me about foxes.')).messages.at(-1)!.usage!;
    expect(streamed.estimated).toBe(true);
    const { countTokens } = await import('gpt-tokenizer');
    expect(streamed.completionTokens).toBe(countTokens(text)); // o200k, as OpenAI counts gpt-4o
    expect(streamed.completionTokens).toBeGreaterThanOrEqual(500);
    expect(streamed.promptTokens).toBeGreaterThan(40); // the two tool definitions and the prompt
    server().enqueue({ json: { id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] } });
    const whole = (await replay(m, 'Tell me about foxes.', false)).messages.at(-1)!.usage!;
    expect(whole).toEqual(streamed);
  });
});
