import { describe, expect, it } from 'vitest';
import { ScriptedChatModel, userMessage, assistantMessage } from '../../src/core/index.js';
import { writeSummary } from '../../src/core/context/summary.js';
import { TokenCounter } from '../../src/core/context/token-counter.js';

// Review of issue 42: the summary request was the one model request sent without the run's secrets
// redacted (a key the person pasted, or a file a middleware read, went to the provider in it).
describe('the summary request', () => {
  it('carries no secret of the run', async () => {
    const SECRET = 'sk-summary-secret-0123456789';
    const model = new ScriptedChatModel([{ content: 'a summary' }]);
    await writeSummary([userMessage(`my key is ${SECRET}`), assistantMessage('noted')], { model, counter: new TokenCounter('gpt-4o'), inputBudget: 10_000, secrets: [SECRET] });
    const sent = JSON.stringify(model.calls[0]!.messages);
    expect(sent).not.toContain(SECRET);
    expect(sent).toContain('[REDACTED]');
  });
});
