import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { validateArguments } from './parameters.js';
import { ToolInterrupt, type JsonSchema, type ToolContext } from './tool.js';

type Question = ElicitRequest['params'];
type Schema = { type?: string; properties?: Record<string, { type?: string; enum?: unknown[]; title?: string; description?: string }>; required?: string[] };

/** What an elicitation interrupt carries for the faces: the server's question and its form. */
export interface ElicitationData {
  server: string;
  message: string;
  /** The requested schema (flat object of string/number/boolean/enum fields). */
  schema?: Schema | undefined;
}

/** A tool call that is running on a server, with the question it asked and nobody has answered yet. */
class LiveCall {
  result!: Promise<CallToolResult>;
  asked: { question: Question; answer: (r: ElicitResult) => void } | undefined;
  /** An answer given before the question came (the call was made again, in a new process). */
  early: unknown;
  /** Why that answer did not fit the form: said when the question is asked again. */
  problem: string | undefined;
  private wake: (() => void) | undefined;
  readonly controller = new AbortController();

  constructor(early: unknown) {
    this.early = early;
  }

  /** Resolves when the server asks something. */
  questioned(): Promise<'asked'> {
    return this.asked ? Promise.resolve('asked') : new Promise((r) => (this.wake = () => r('asked')));
  }

  ask(question: Question): Promise<ElicitResult> {
    return new Promise((answer) => {
      this.asked = { question, answer };
      this.wake?.();
    });
  }
}

/**
 * MCP elicitation as adk interrupts. A server's question during a tool call stops the run (the
 * call keeps running, waiting); the person's answer resumes the run, and the re-executed tool
 * hands the answer to the waiting call. Resumed in another process, the call is made again and
 * its first question answered with the answer given.
 */
export class McpElicitations {
  private readonly calls = new Map<string, LiveCall>();
  /** The call of each server that asks now: questions belong to the call running on it. */
  private readonly current = new Map<string, LiveCall>();

  async run(server: string, ctx: ToolContext, start: (signal: AbortSignal) => Promise<CallToolResult>): Promise<CallToolResult> {
    const key = `${server}\u0000${ctx.callId}`;
    const answer = ctx.resume.isResumeTarget && ctx.resume.hasData ? ctx.resume.data : undefined;
    let call = this.calls.get(key);
    if (call?.asked && answer !== undefined) {
      const reply = toElicitResult(answer, call.asked.question);
      if ('error' in reply) throw new ToolInterrupt(interruptInfo(server, call.asked.question, reply.error));
      const { answer: give } = call.asked;
      call.asked = undefined;
      give(reply.result);
    } else if (!call) {
      call = new LiveCall(answer);
      this.calls.set(key, call);
      const live = call;
      live.result = start(live.controller.signal);
      live.result.catch(() => {}).finally(() => this.calls.get(key) === live && this.calls.delete(key));
    }
    this.current.set(server, call);
    // This execution's cancel (not its end by interrupt) cancels the call on the server.
    const cancel = () => call!.controller.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const outcome = await Promise.race([call.result.then((r) => ({ r })), call.questioned()]);
      if (outcome !== 'asked') return outcome.r;
      const problem = call.problem;
      call.problem = undefined;
      throw new ToolInterrupt(interruptInfo(server, call.asked!.question, problem));
    } finally {
      ctx.signal.removeEventListener('abort', cancel);
    }
  }

  isInterrupt(e: unknown): boolean {
    return e instanceof ToolInterrupt;
  }

  /** The server's elicitation/create: answered by the person through an interrupt (see run). */
  ask(server: string, question: Question): Promise<ElicitResult> {
    const call = this.current.get(server);
    if (!call) return Promise.resolve({ action: 'decline' });
    if (call.early !== undefined) {
      const reply = toElicitResult(call.early, question);
      call.early = undefined;
      if ('result' in reply) return Promise.resolve(reply.result);
      call.problem = reply.error;
    }
    return call.ask(question);
  }
}

/** The interrupt a question becomes: a text question the faces know, with the form for those that show forms. */
function interruptInfo(server: string, q: Question, problem?: string) {
  const schema = 'requestedSchema' in q ? (q.requestedSchema as Schema) : undefined;
  const fields = Object.entries(schema?.properties ?? {});
  const form =
    fields.length > 1
      ? `\nAnswer with JSON: {${fields.map(([k, f]) => `"${k}": ${f.enum ? f.enum.map((v) => JSON.stringify(v)).join('|') : (f.type ?? 'string')}`).join(', ')}} (required: ${(schema?.required ?? []).join(', ') || 'none'}); an empty answer declines.`
      : fields.length === 1 && fields[0]![1].enum
        ? `\nOne of: ${fields[0]![1].enum.map((v) => JSON.stringify(v)).join(', ')}; an empty answer declines.`
        : '\nAn empty answer declines.';
  const data: ElicitationData = { server, message: q.message, ...(schema ? { schema } : {}) };
  return { kind: 'input', message: `${problem ? `${problem}\n` : ''}MCP server '${server}' asks: ${q.message}${form}`, data: { elicitation: data } };
}

/**
 * The person's answer as the server's ElicitResult: text for a one-field form (converted to its
 * type), JSON for a larger one, an object as the form's content, or `{action}` as it is; checked
 * against the requested schema. Empty text declines.
 */
export function toElicitResult(answer: unknown, q: Question): { result: ElicitResult } | { error: string } {
  if (answer && typeof answer === 'object' && 'action' in answer) {
    const a = answer as { action: string; content?: unknown };
    if (a.action !== 'accept') return { result: { action: a.action === 'cancel' ? 'cancel' : 'decline' } };
    answer = a.content ?? {};
  }
  if (typeof answer === 'string' && !answer.trim()) return { result: { action: 'decline' } };
  const schema = 'requestedSchema' in q ? (q.requestedSchema as Schema) : undefined;
  const fields = Object.entries(schema?.properties ?? {});
  let content: unknown = answer;
  if (typeof answer === 'string') {
    if (fields.length === 1) content = { [fields[0]![0]]: coerce(answer.trim(), fields[0]![1].type) };
    else if (fields.length === 0) content = {};
    else {
      try {
        content = JSON.parse(answer);
      } catch {
        return { error: `That answer is not the JSON object the form asks for.` };
      }
    }
  }
  if (!content || typeof content !== 'object' || Array.isArray(content)) return { error: 'That answer is not a form (a JSON object).' };
  if (schema) {
    const v = validateArguments({ parameters: { ...(schema as JsonSchema), type: 'object' } }, content);
    if (!v.ok) return { error: `That answer does not fit the form: ${v.error}.` };
  }
  return { result: { action: 'accept', content: content as Record<string, string | number | boolean | string[]> } };
}

function coerce(text: string, type: string | undefined): unknown {
  if (type === 'number' || type === 'integer') return Number(text);
  if (type === 'boolean') return /^(y|yes|true|1|on)$/i.test(text);
  return text;
}
