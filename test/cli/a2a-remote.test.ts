import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectExit, ofType, runCli, serverEnv, sessionIdOf, tempDir, tempHome, textOf, toolMessagesOf, useServer, writeAgentsFile } from './helpers.js';
import { trustAgentsFile } from '../support/trust.js';

// Issue 34: agents.yaml uses a remote A2A agent (a server written here with @a2a-js/sdk's server
// side) as a sub-agent and as a tool; its input-required is answered with `adk resume --input`.
const model = useServer();

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const agentMessage = (taskId: string, contextId: string, value: string): Message => ({ messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [text(value)], metadata: undefined, extensions: [], referenceTaskIds: [] });
const partsText = (parts: readonly Part[]) => parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** The remote agent: streams its answer in chunks; "ask" in a message makes it ask a name first, answered on the same task. */
class GreeterExecutor implements AgentExecutor {
  readonly received: Array<{ taskId: string; contextId: string; text: string; continued: boolean }> = [];
  asked?: { taskId: string; contextId: string };

  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const said = partsText(ctx.userMessage.parts);
    const { taskId, contextId } = ctx;
    const continued = ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED;
    this.received.push({ taskId, contextId, text: said, continued });
    const status = (state: TaskState, message?: Message) => AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined });
    bus.publish(continued ? AgentEvent.task(ctx.task!) : AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    bus.publish(status(TaskState.TASK_STATE_WORKING, agentMessage(taskId, contextId, 'thinking')));
    if (/\bask\b/i.test(said) && !continued) {
      this.asked = { taskId, contextId };
      bus.publish(status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(taskId, contextId, 'What is your name?')));
    } else {
      const answer = continued ? ['Hello, ', `${said}!`, ' (same task)'] : ['Remote ', 'greets ', `you about: ${said}`];
      const artifactId = crypto.randomUUID();
      answer.forEach((chunk, i) =>
        bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId, name: 'answer', description: '', parts: [text(chunk)], metadata: undefined, extensions: [] }, append: i > 0, lastChunk: i === answer.length - 1, metadata: undefined })),
      );
      bus.publish(status(TaskState.TASK_STATE_COMPLETED));
    }
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}

interface RemoteServer {
  url: string;
  executor: GreeterExecutor;
  cardReads: number;
  close(): Promise<void>;
}

async function startRemote(): Promise<RemoteServer> {
  const executor = new GreeterExecutor();
  let base = '';
  const card = (): AgentCard =>
    ({
      name: 'Remote Greeter',
      description: 'Greets people over A2A.',
      supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      provider: undefined,
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'greet', name: 'greet', description: 'greets', tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
      signatures: [],
    }) as AgentCard;
  const handler = new JsonRpcTransportHandler(new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor));
  const out: RemoteServer = { url: '', executor, cardReads: 0, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      out.cardReads++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card()));
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    const result = await handler.handle(JSON.parse(body), new ServerCallContext({ requestedVersion: String(req.headers['a2a-version'] ?? '1.0') }));
    if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for await (const event of result as AsyncGenerator<unknown>) res.write(`data: ${JSON.stringify(event)}\n\n`);
      res.end();
    } else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  out.url = base;
  out.close = () => new Promise((r) => server.close(() => r()));
  return out;
}

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemote();
});
afterAll(() => remote?.close());

let home: string;
let dir: string;
beforeEach(() => {
  home = tempHome();
  dir = tempDir('adk-a2a-cwd-');
  remote.executor.received.length = 0;
  remote.executor.asked = undefined;
});

const subAgentTeam = (url: string) => `version: 1
default: lead
agents:
  lead:
    description: Hands greetings to the remote agent.
    instruction: Transfer greetings to the remote agent.
    sub_agents: [{ a2a: "${url}" }]
`;
const toolTeam = (url: string) => `version: 1
default: lead
agents:
  lead:
    description: Uses a remote agent as a tool.
    instruction: Ask the greeter tool.
    tools: [{ a2a: "${url}", name: greeter }]
`;

/** A trusted agents file in its own folder. */
function trusted(yaml: string): string {
  const file = writeAgentsFile(tempDir('adk-a2a-cfg-'), yaml);
  trustAgentsFile(home, file);
  return file;
}
const opts = () => ({ env: serverEnv(model(), 'test-key-123456', home), cwd: dir });

describe('a remote A2A agent in agents.yaml', () => {
  it('as a sub-agent: named from its card, transferred to, its streamed answer in the JSONL', async () => {
    model().enqueue({ toolCalls: [{ id: 'call_t', name: 'transfer_to_agent', arguments: { agent_name: 'Remote_Greeter' } }] });
    const r = await expectExit(['run', '--agents', trusted(subAgentTeam(remote.url)), '--json', 'greet the team'], 0, opts());
    // The lead model was offered the remote, by its card's name and description.
    expect(textOf(model().chatRequests[0]!)).toMatch(/Remote_Greeter[\s\S]*Greets people over A2A\./);
    expect(remote.executor.received).toEqual([expect.objectContaining({ text: 'greet the team', continued: false })]);
    // Text arrives as deltas, chunk by chunk, from the remote agent's run path.
    const deltas = ofType(r.lines, 'delta').filter((d) => d.agent === 'Remote_Greeter');
    expect(deltas.map((d) => d.content)).toEqual(['Remote ', 'greets ', 'you about: greet the team']);
    expect(deltas[0].runPath).toEqual(['lead', 'Remote_Greeter']);
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Remote greets you about: greet the team' });
  }, 60_000);

  it('as a tool: the remote answer is the tool result the model reads', async () => {
    model().enqueue({ toolCalls: [{ id: 'call_g', name: 'greeter', arguments: { request: 'say hello to Bo' } }] }, { content: 'The greeter answered.' });
    const r = await expectExit(['run', '--agents', trusted(toolTeam(remote.url)), '--json', 'use the greeter'], 0, opts());
    expect(remote.executor.received.map((x) => x.text)).toEqual(['say hello to Bo']);
    expect(ofType(r.lines, 'tool_result')).toEqual([expect.objectContaining({ name: 'greeter', isError: false, content: 'Remote greets you about: say hello to Bo' })]);
    expect(toolMessagesOf(model().chatRequests[1]!)[0].content).toBe('Remote greets you about: say hello to Bo');
    expect(r.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'The greeter answered.' });
  }, 60_000);

  it('input-required is an adk interrupt; adk resume --input answers it on the same remote task', async () => {
    model().enqueue({ toolCalls: [{ id: 'call_t', name: 'transfer_to_agent', arguments: { agent_name: 'Remote_Greeter' } }] });
    const file = trusted(subAgentTeam(remote.url));
    const r = await expectExit(['run', '--agents', file, '--json', 'please ask me something'], 3, opts());
    const [point] = ofType(r.lines, 'interrupt')[0].interrupts;
    expect(point).toMatchObject({ kind: 'input', message: 'What is your name?', address: 'agent:lead;agent:Remote_Greeter' });
    const asked = remote.executor.asked!;
    expect(asked.taskId).toBeTruthy();

    // Another process, the team built anew: the task id came back from the checkpoint.
    const a = await expectExit(['resume', sessionIdOf(r), '--input', 'Ada', '--json'], 0, opts());
    expect(remote.executor.received.at(-1)).toEqual({ taskId: asked.taskId, contextId: asked.contextId, text: 'Ada', continued: true });
    expect(a.lines.at(-1)).toMatchObject({ type: 'done', status: 'completed', output: 'Hello, Ada! (same task)' });
    expect(model().chatRequests).toHaveLength(1);
  }, 60_000);

  it('is refused in an untrusted folder, naming the endpoint', async () => {
    const file = writeAgentsFile(tempDir('adk-a2a-cfg-'), subAgentTeam(remote.url));
    const reads = remote.cardReads;
    const r = await runCli(['run', '--agents', file, '--json', 'hi'], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not trusted/);
    expect(r.stderr).toContain(`talks to the A2A agent at ${remote.url}`);
    // Nothing was reached: not even the card.
    expect(remote.cardReads).toBe(reads);
    expect(remote.executor.received).toEqual([]);
  }, 60_000);

  it('refuses a URL whose name resolves to a private address unless ADK_FETCH_ALLOW_HOSTS opens it', async () => {
    const name = hostname();
    const addr = await lookup(name).catch(() => undefined);
    expect(addr?.address, `${name} should resolve to a loopback address on this machine`).toMatch(/^127\.|^::1$/);
    const url = remote.url.replace('127.0.0.1', name);
    const file = trusted(toolTeam(url));
    const reads = remote.cardReads;
    const r = await runCli(['run', '--agents', file, '--json', 'hi'], opts());
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/loopback address.*remote A2A agents.*ADK_FETCH_ALLOW_HOSTS/s);
    expect(remote.cardReads).toBe(reads);
    model().enqueue({ toolCalls: [{ id: 'call_g', name: 'greeter', arguments: { request: 'allowed' } }] }, { content: 'ok' });
    // The card sends messages to the address it names (127.0.0.1): every address reached is checked, so both are allowed.
    const allowed = await runCli(['run', '--agents', file, '--json', 'hi'], { ...opts(), env: { ...opts().env, ADK_FETCH_ALLOW_HOSTS: `${name},127.0.0.1` } });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(remote.executor.received.map((x) => x.text)).toEqual(['allowed']);
  }, 60_000);
});
