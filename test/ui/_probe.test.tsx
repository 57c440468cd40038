import { cleanup, render } from 'ink-testing-library';
import { afterEach, expect, test, vi } from 'vitest';
import { ApprovalPrompt } from '../../src/ui/components/ApprovalPrompt.js';
import { KEY, plain, tick, type } from './helpers.js';
afterEach(() => cleanup());
for (let i = 0; i < 30; i++)
test('probe ' + i, async () => {
  const onDecision = vi.fn();
  const r = render(<ApprovalPrompt agent="coder" tool="shell" arguments={{ command: 'rm -rf build' }} message="Allow shell?" width={70} onDecision={onDecision} />);
  await type(r.stdin, 'n');
  const f1 = plain(r.lastFrame());
  await type(r.stdin, 'too risky');
  const f2 = plain(r.lastFrame());
  if (!f2.includes('too risky')) console.log('LOST', i, JSON.stringify(f1.split('\n').slice(-3)), JSON.stringify(f2.split('\n').slice(-3)), r.frames.length);
  await type(r.stdin, KEY.enter);
});
