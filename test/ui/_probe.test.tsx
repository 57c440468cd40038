import { render } from 'ink-testing-library';
import { test } from 'vitest';
import { ToolRow } from '../../src/ui/components/ToolRow.js';
test('probe', () => {
  const args = JSON.stringify({ command: 'x'.repeat(200), cwd: '/tmp' });
  console.log(JSON.stringify(render(<ToolRow call={{ callId: 'c', name: 'shell', args, status: 'done' }} width={40} />).lastFrame()));
});
