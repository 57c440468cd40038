import { mkdirSync, writeFileSync } from 'node:fs';
import { trustAgentsFile } from '../support/trust.js';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelAgent } from '../../src/core/agents/chat-model-agent.js';
import type { AgentEvent } from '../../src/core/agents/types.js';
import { CancelledError } from '../../src/core/errors.js';
import { ScriptedChatModel } from '../../src/core/models/scripted.js';
import { Runner } from '../../src/core/runner.js';
import { InMemoryCheckpointStore } from '../../src/core/store/index.js';
import type { Tool } from '../../src/core/tools/tool.js';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server.js';
import { cli, expectCleanStderr, modelEnv, ofType, showSession, spawnCli, workspace } from './helpers.js';

/*
 * Tool faults: a tool that throws, never resolves, returns 50 MB, or ignores its AbortSignal.
 * The runtime tests use the real ChatModelAgent and Runner; the CLI tests load module tools
 * from an agents.yaml, as a user would.
 */

const params = { type: 'object', properties: {} } as const;
const callTool = (name: string) => ({ toolCalls: [{ id: `call_${name}`, name, arguments: {} }] });
const toolMessage = (model: ScriptedChatModel, call: number) => model.calls[call].messages.find((m) => m.role === 'tool')!;

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('tool faults in the runtime', () => {
  it('a tool that throws: the model sees an error result and the run goes on', async () => {
    const boom: Tool = { name: 'boom', description: 'fails', parameters: params, execute: () => Promise.reject(new Error('disk on fire')) };
    const model = new ScriptedChatModel([callTool('boom'), { content: 'handled' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [boom] });
    const events = await drain(new Runner({ agent }).query('go'));
    expect(events.filter((e) => e.error)).toEqual([]);
    expect(toolMessage(model, 1)).toMatchObject({ role: 'tool', isError: true, content: "Error: tool 'boom' failed: disk on fire" });
    expect(events.at(-1)?.output?.message?.message?.content).toBe('handled');
  });

  it('a tool that never resolves: its own timeout, then the agent default, gives the model an error result', async () => {
    const never: Tool = { name: 'never', description: 'hangs', parameters: params, timeoutMs: 150, execute: () => new Promise(() => {}) };
    const neverDefault: Tool = { name: 'never_default', description: 'hangs', parameters: params, execute: () => new Promise(() => {}) };
    const model = new ScriptedChatModel([callTool('never'), callTool('never_default'), { content: 'moved on' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [never, neverDefault], toolTimeoutMs: 200 });
    const started = Date.now();
    const events = await drain(new Runner({ agent }).query('go'));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(toolMessage(model, 1)).toMatchObject({ isError: true, content: "Error: tool 'never' timed out after 150 ms." });
    expect(model.calls[2].messages.filter((m) => m.role === 'tool').at(-1)).toMatchObject({ isError: true, content: "Error: tool 'never_default' timed out after 200 ms." });
    expect(events.at(-1)?.output?.message?.message?.content).toBe('moved on');
  });

  it('a tool that returns 50 MB: capped, with a note telling the model what it is missing', async () => {
    const size = 50 * 1024 * 1024;
    const flood: Tool = { name: 'flood', description: 'huge', parameters: params, execute: () => 'x'.repeat(size) };
    const model = new ScriptedChatModel([callTool('flood'), { content: 'ok' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [flood] });
    await drain(new Runner({ agent }).query('go'));
    const seen = toolMessage(model, 1).content;
    expect(seen.length).toBeLessThan(101_000);
    expect(seen).toMatch(new RegExp(`\\[output truncated: showing the first 100000 of ${size} characters\\]$`));
  });

  it('a tool that ignores the AbortSignal: cancellation still completes within 2 s and saves a checkpoint', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let late: NodeJS.Timeout | undefined;
    const stubborn: Tool = {
      name: 'stubborn',
      description: 'ignores its signal',
      parameters: params,
      execute: () => {
        started();
        return new Promise((r) => (late = setTimeout(() => r('too late'), 30_000)));
      },
    };
    const model = new ScriptedChatModel([callTool('stubborn'), { content: 'never reached' }]);
    const agent = new ChatModelAgent({ name: 'a', description: 'd', model, tools: [stubborn] });
    const store = new InMemoryCheckpointStore();
    const ctrl = new AbortController();
    const run = drain(new Runner({ agent, checkpointStore: store }).query('go', { signal: ctrl.signal, checkpointId: 'cp' }));
    await running;
    const abortedAt = Date.now();
    ctrl.abort();
    const events = await run;
    const took = Date.now() - abortedAt;
    clearTimeout(late);
    expect(took).toBeLessThan(2000);
    expect(events.some((e) => e.action?.interrupted?.cancelled)).toBe(true);
    expect(events.at(-1)?.error).toBeInstanceOf(CancelledError);
    expect(model.calls).toHaveLength(1);
    expect(store.data.has('cp')).toBe(true);
  });
});

const TOOLS_MODULE = `
const params = { type: 'object', properties: {} };
export const flood = { name: 'flood', description: 'huge output', parameters: params, execute: () => 'y'.repeat(50 * 1024 * 1024) };
export const boom = { name: 'boom', description: 'throws', parameters: params, execute: () => { throw new Error('module tool exploded'); } };
export const never = { name: 'never', description: 'never resolves', parameters: params, timeoutMs: 300, execute: () => new Promise(() => {}) };
// Ignores its signal and keeps a 60 s timer alive: a cancelled run must still exit.
export const stubborn = { name: 'stubborn', description: 'ignores cancel', parameters: params, execute: () => { process.stdout.write(''); return new Promise((r) => setTimeout(() => r('late'), 60_000)); } };
`;

const AGENTS = `version: 1
agents:
  worker:
    description: Uses fault tools.
    instruction: Use the tools.
    tools:
      - { module: ./tools/faulty.mjs, export: flood }
      - { module: ./tools/faulty.mjs, export: boom }
      - { module: ./tools/faulty.mjs, export: never }
      - { module: ./tools/faulty.mjs, export: stubborn }
`;

describe('tool faults through the CLI (module tools)', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await startOpenAIServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  function setup() {
    const ws = workspace();
    mkdirSync(join(ws.cwd, 'tools'));
    writeFileSync(join(ws.cwd, 'tools', 'faulty.mjs'), TOOLS_MODULE);
    writeFileSync(join(ws.cwd, 'agents.yaml'), AGENTS);
    trustAgentsFile(ws.home, join(ws.cwd, 'agents.yaml')); // module tools run only in a trusted folder
    return { ...ws, env: modelEnv(server, ws.home) };
  }

  it('throw, timeout and 50 MB: error results or a capped result; the run completes and the session stays small', async () => {
    const { cwd, env } = setup();
    server.enqueue(
      {
        toolCalls: [
          { id: 'c_flood', name: 'flood', arguments: {} },
          { id: 'c_boom', name: 'boom', arguments: {} },
          { id: 'c_never', name: 'never', arguments: {} },
        ],
      },
      { content: 'all handled' },
    );
    const r = await cli(['run', '--json', 'go'], { env, cwd, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    const results = Object.fromEntries(ofType(r.lines, 'tool_result').map((x) => [x.id, x]));
    expect(results.c_boom).toMatchObject({ isError: true, content: "Error: tool 'boom' failed: module tool exploded" });
    expect(results.c_never).toMatchObject({ isError: true, content: "Error: tool 'never' timed out after 300 ms." });
    expect(results.c_flood.isError).toBe(false);
    expect(results.c_flood.content.length).toBeLessThan(101_000);
    expect(results.c_flood.content).toContain(`[output truncated: showing the first 100000 of ${50 * 1024 * 1024} characters]`);
    // What the model was sent is the capped text, and the saved session is not 50 MB.
    const sent = server.chatRequests[1].body.messages.filter((m: any) => m.role === 'tool');
    expect(sent.map((m: any) => m.content.length).every((n: number) => n < 101_000)).toBe(true);
    const session = await showSession(r.lines[0].sessionId, env, cwd);
    expect(JSON.stringify(session).length).toBeLessThan(500_000);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'all handled' });
  });

  it('Ctrl-C while a tool ignores its AbortSignal: the CLI saves and exits within 2 s', async () => {
    const { cwd, env } = setup();
    server.enqueue({ toolCalls: [{ id: 'c_stub', name: 'stubborn', arguments: {} }] }, { content: 'never reached' });
    const p = spawnCli(['run', '--json', 'go'], { env, cwd });
    await p.waitForLine((l) => l.includes('"tool_call"'));
    await new Promise((r) => setTimeout(r, 100));
    const sentAt = Date.now();
    p.child.kill('SIGINT');
    const guard = setTimeout(() => p.child.kill('SIGKILL'), 5000);
    const exit = await p.exited;
    clearTimeout(guard);
    expect(Date.now() - sentAt, `stderr: ${p.stderr()}`).toBeLessThan(2000);
    expect(exit.code).toBe(130);
    expectCleanStderr(p.stderr());
    const lines = p.stdout().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    const session = await showSession(lines[0].sessionId, env, cwd);
    expect(session.status).toBe('cancelled');
    expect(session.checkpointId).toBe(session.id);
  });
});
