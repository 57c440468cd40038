import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, ofType, serverEnv, tempDir, tempHome, useServer } from './helpers.js';

// Issue 49: nothing that the first model request does not need may wait before it. The default team
// (it has shell) probed the sandbox first (bwrap started and checked), and an OpenAI-compatible URL
// was asked `GET /v1/models` for its window: both on the path to the first token of every run.
// Here both are slow on purpose; the first request must still go out before either has answered, and
// the shell call that follows must still be decided only once the probe has (it runs sandboxed).
const server = useServer();

describe('the first model request', () => {
  it('goes out before the sandbox probe and the server’s window have answered; the shell call still waits for the probe', async () => {
    const dir = tempDir('adk-first-');
    const mark = join(dir, 'probe-answered');
    // bwrap as the person may name it (ADK_BWRAP), slow: the probe's answer comes 3 s late.
    const slow = join(dir, 'slow-bwrap');
    writeFileSync(slow, `#!/bin/sh\nsleep 3\n[ -e ${mark} ] || touch ${mark}\nexec /usr/bin/bwrap "$@"\n`);
    chmodSync(slow, 0o755);
    server().setModelsDelay(2_000);
    const seen: Array<{ probeAnswered: boolean; modelsAnswered: number }> = [];
    server().onRequest((req, i) => {
      seen.push({ probeAnswered: existsSync(mark), modelsAnswered: server().modelsAnsweredAt.length });
      if (i === 0) return { toolCalls: [{ id: 's1', name: 'shell', arguments: { command: 'echo inside' } }] };
      return { content: 'done' };
    });
    const cwd = tempDir('adk-first-ws-');
    const r = await expectExit(['run', '--json', '--allow', 'shell(echo inside)', 'say hi'], 0, { env: { ...serverEnv(server(), 'sk-first-request-1', tempHome()), ADK_BWRAP: slow }, cwd, timeoutMs: 60_000 });
    expect(seen[0]).toEqual({ probeAnswered: false, modelsAnswered: 0 });
    // The allowed command ran (in the sandbox the probe found), after the probe had answered.
    expect(seen[1]!.probeAnswered).toBe(true);
    expect(String(ofType(r.lines, 'tool_result')[0]!.content)).toContain('inside');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'done' });
  }, 90_000);
});
