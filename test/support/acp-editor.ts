import { client, ndJsonStream, type ClientCapabilities, type CreateElicitationRequest, type CreateElicitationResponse, type ClientConnection, type RequestPermissionRequest, type SessionNotification, type SessionUpdate } from '@agentclientprotocol/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { ADK_BIN, tempHome } from './cli.js';

/** How the test's editor answers a permission request: an option id, or a function of the request. */
export type PermissionAnswer = string | ((req: RequestPermissionRequest) => string | 'cancelled');

export interface EditorOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  args?: string[];
  capabilities?: ClientCapabilities;
  /** In-memory buffers the editor has open (path → unsaved text); fs reads see them first. */
  buffers?: Map<string, string>;
}

/**
 * An editor, as far as ACP goes, built on the SDK's own client side: it starts `adk acp` as a child
 * process, records every session update, answers permission requests from a script, serves fs
 * reads/writes from its buffers and runs terminals as real processes.
 */
export class TestEditor {
  readonly updates: SessionNotification[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  readonly fsReads: string[] = [];
  readonly fsWrites: Array<{ path: string; content: string }> = [];
  readonly terminals: Array<{ command: string; args: string[] }> = [];
  readonly answers: PermissionAnswer[] = [];
  stderr = '';
  stdout = '';
  readonly child: ChildProcess;
  readonly connection: ClientConnection;
  private readonly running = new Map<string, { output: string; exit: Promise<{ exitCode: number | null; signal: string | null }>; proc: ChildProcess }>();

  constructor(opts: EditorOptions = {}) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ADK_HOME: tempHome(), ...opts.env })) if (v !== undefined) env[k] = v;
    if (!opts.env || !('OPENAI_API_KEY' in opts.env)) delete env.OPENAI_API_KEY;
    if (!opts.env || !('OPENAI_BASE_URL' in opts.env)) delete env.OPENAI_BASE_URL;
    this.child = spawn(process.execPath, [ADK_BIN, 'acp', ...(opts.args ?? [])], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
    const buffers = opts.buffers ?? new Map<string, string>();
    const app = client({ name: 'test-editor' })
      .onNotification('session/update', ({ params }) => void this.updates.push(params))
      .onRequest('session/request_permission', ({ params }) => {
        this.permissions.push(params);
        const next = this.answers.shift();
        if (next === undefined) throw new Error(`unexpected permission request: ${JSON.stringify(params.toolCall.title)}`);
        const id = typeof next === 'function' ? next(params) : next;
        return id === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: id } };
      })
      .onRequest('elicitation/create', ({ params }) => {
        if (!this.onElicitation) throw new Error('unexpected elicitation');
        return this.onElicitation(params);
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        this.fsReads.push(params.path);
        return { content: buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        this.fsWrites.push({ path: params.path, content: params.content });
        buffers.set(params.path, params.content);
        writeFileSync(params.path, params.content);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => {
        this.terminals.push({ command: params.command, args: params.args ?? [] });
        const env = Object.fromEntries((params.env ?? []).map((e) => [e.name, e.value]));
        const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, stdio: ['ignore', 'pipe', 'pipe'] });
        const entry = { output: '', proc, exit: new Promise<{ exitCode: number | null; signal: string | null }>((r) => proc.on('close', (exitCode, signal) => r({ exitCode, signal }))) };
        for (const s of [proc.stdout!, proc.stderr!]) s.setEncoding('utf8').on('data', (d: string) => (entry.output += d));
        const id = `term-${this.terminals.length}`;
        this.running.set(id, entry);
        return { terminalId: id };
      })
      .onRequest('terminal/wait_for_exit', async ({ params }) => this.terminal(params.terminalId).exit)
      .onRequest('terminal/output', async ({ params }) => {
        const t = this.terminal(params.terminalId);
        const done = t.proc.exitCode !== null || t.proc.signalCode !== null;
        return { output: t.output, truncated: false, ...(done ? { exitStatus: await t.exit } : {}) };
      })
      .onRequest('terminal/kill', ({ params }) => {
        this.terminal(params.terminalId).proc.kill('SIGKILL');
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        this.running.delete(params.terminalId);
        return {};
      });
    const input = Readable.toWeb(this.child.stdout!) as unknown as ReadableStream<Uint8Array>;
    // Every byte on adk's stdout is kept, to check that only protocol messages go there.
    const teed = input.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, c) => {
          this.stdout += Buffer.from(chunk).toString('utf8');
          c.enqueue(chunk);
        },
      }),
    );
    this.connection = app.connect(ndJsonStream(Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>, teed));
    this.capabilities = opts.capabilities ?? {};
  }

  readonly capabilities: ClientCapabilities;
  /** Answers elicitation/create (forms), when the test offers them. */
  onElicitation: ((req: CreateElicitationRequest) => CreateElicitationResponse) | undefined;

  private terminal(id: string) {
    const t = this.running.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  }

  get agent() {
    return this.connection.agent;
  }

  initialize() {
    return this.agent.request('initialize', { protocolVersion: 1, clientCapabilities: this.capabilities, clientInfo: { name: 'test-editor', version: '1.0.0' } });
  }

  /** Updates of one kind for a session, in order. */
  of<K extends SessionUpdate['sessionUpdate']>(kind: K, sessionId?: string): Array<Extract<SessionUpdate, { sessionUpdate: K }>> {
    return this.updates.filter((n) => (!sessionId || n.sessionId === sessionId) && n.update.sessionUpdate === kind).map((n) => n.update as Extract<SessionUpdate, { sessionUpdate: K }>);
  }

  /** The agent's streamed text for a session. */
  text(sessionId?: string): string {
    return this.of('agent_message_chunk', sessionId)
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
  }

  /** Ends the connection (the editor closes) and waits for adk to exit. */
  async close(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((r) => this.child.once('exit', (code) => r(code)));
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}
