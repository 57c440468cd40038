import { namedExports } from '../named-exports.js';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ModelCallInfo, RunCallbacks } from '../callbacks.js';

type OtelApi = typeof import('@opentelemetry/api');

/** An OpenTelemetry `Tracer` (typed loosely so these declarations need no @opentelemetry/api). */
export interface OtelTracer {
  startSpan(name: string, options?: object, context?: object): object;
}

/** Options of the OpenTelemetry tracing callbacks. */
export interface OtelTracingOptions {
  /** The tracer spans come from (an `@opentelemetry/api` Tracer). Default: `trace.getTracer('adk')` of the registered provider. */
  tracer?: OtelTracer | undefined;
}

let api: Promise<OtelApi | undefined> | undefined;

/** `@opentelemetry/api` if it is installed (an optional peer dependency), else undefined. */
function loadOtelApi(): Promise<OtelApi | undefined> {
  return (api ??= import('@opentelemetry/api').then(
    // (its own `default` export holds only the five API singletons: SpanStatusCode tells them apart)
    (m) => namedExports(m, 'SpanStatusCode'),
    () => undefined,
  ));
}

/** Whether a tracer provider other than the API's built-in no-op one is registered. */
function sdkRegistered(otel: OtelApi): boolean {
  const provider = otel.trace.getTracerProvider();
  const delegate = provider instanceof otel.ProxyTracerProvider ? provider.getDelegate() : provider;
  // A proxy with nothing behind it hands out the API's no-op provider.
  const noop = new otel.ProxyTracerProvider().getDelegate();
  return delegate.constructor !== noop.constructor;
}

/** What an agent run's span sums up when it ends: its own model requests, and its sub-agents'. */
interface AgentRun {
  span: Span;
  open: boolean;
  /** From the agent's own requests. */
  provider?: string | undefined;
  model?: string | undefined;
  outputType?: string | undefined;
  finish?: string | undefined;
  /** From requests of agents under it, for an agent that makes none itself (a workflow). */
  innerProvider?: string | undefined;
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number } | undefined;
}

/** A low-cardinality `error.type`: the HTTP status of a failed request, else adk's error code, else the error's class. */
function errorType(error: Error): string {
  const e = error as { status?: unknown; code?: unknown };
  if (typeof e.status === 'number') return String(e.status);
  if (typeof e.code === 'string' && e.code) return e.code;
  return error.name || '_OTHER';
}

/**
 * Callbacks that record a run as OpenTelemetry spans, after the GenAI semantic conventions:
 * `invoke_agent {agent}` per agent run, `chat {model}` per model request and `execute_tool {tool}`
 * per tool call, each the child of the agent run it belongs to. Each carries the conventions'
 * required and recommended attributes adk knows: `gen_ai.operation.name`, `gen_ai.provider.name`,
 * `gen_ai.request.*` (model, temperature, top_p, max_tokens, seed, stop_sequences), `server.address`
 * and `server.port`, `gen_ai.output.type`, `gen_ai.response.id`, `gen_ai.response.model`,
 * `gen_ai.response.finish_reasons`, `gen_ai.usage.input_tokens`, `output_tokens`,
 * `cache_read.input_tokens` and `cache_creation.input_tokens` (an agent run sums its requests and its
 * sub-agents'), `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.description`,
 * `gen_ai.tool.type` and, on failure, `error.type` (the HTTP status of a failed request, adk's error
 * code, or `tool_error` for a tool that returned an error). Message text and tool arguments and
 * results (opt-in in the conventions) are not recorded. With no SDK registered the spans are no-ops;
 * without `@opentelemetry/api` installed this returns undefined.
 */
export async function otelTracing(options: OtelTracingOptions = {}): Promise<RunCallbacks | undefined> {
  const otel = await loadOtelApi();
  if (!otel) return undefined;
  // No SDK registered: every span would be a no-op, so the run is not observed at all.
  if (!options.tracer && !sdkRegistered(otel)) return undefined;
  const tracer = (options.tracer as Tracer | undefined) ?? otel.trace.getTracer('adk');
  const { SpanKind, SpanStatusCode, context, trace } = otel;
  const agents = new Map<string, AgentRun>();
  const calls = new WeakMap<object, Span>();
  /** Tool descriptions by agent run and tool name, from the tools its model requests offered. */
  const toolDescriptions = new Map<string, Map<string, string>>();
  const keyOf = (runPath: readonly string[]) => runPath.join('\u0000');

  /** The agent runs containing `runPath`, innermost first. */
  const runsAlong = (runPath: readonly string[]) => {
    const out: AgentRun[] = [];
    for (let n = runPath.length; n > 0; n--) {
      const run = agents.get(keyOf(runPath.slice(0, n)));
      if (run) out.push(run);
    }
    return out;
  };
  /** The span of the agent run at `runPath`, or of the nearest run that contains it. */
  const parentOf = (runPath: readonly string[]) => {
    const [run] = runsAlong(runPath);
    return run ? trace.setSpan(context.active(), run.span) : context.active();
  };
  const start = (name: string, runPath: readonly string[], attributes: Attributes, kind = SpanKind.INTERNAL) => tracer.startSpan(name, { kind, attributes }, parentOf(runPath));
  const fail = (span: Span | undefined, error: Error) => {
    if (!span) return;
    span.recordException(error);
    span.setAttribute('error.type', errorType(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    span.end();
  };
  /** Sets what an agent run's requests told it, before its span ends. */
  const finishAgent = (runPath: readonly string[]): Span | undefined => {
    const run = agents.get(keyOf(runPath));
    if (!run || !run.open) return undefined;
    run.open = false;
    const { span } = run;
    span.setAttribute('gen_ai.provider.name', run.provider ?? run.innerProvider ?? '_OTHER');
    if (run.model) span.setAttribute('gen_ai.request.model', run.model);
    if (run.outputType) span.setAttribute('gen_ai.output.type', run.outputType);
    if (run.finish) span.setAttribute('gen_ai.response.finish_reasons', [run.finish]);
    if (run.usage) {
      span.setAttribute('gen_ai.usage.input_tokens', run.usage.input);
      span.setAttribute('gen_ai.usage.output_tokens', run.usage.output);
      if (run.usage.cacheRead !== undefined) span.setAttribute('gen_ai.usage.cache_read.input_tokens', run.usage.cacheRead);
      if (run.usage.cacheWrite !== undefined) span.setAttribute('gen_ai.usage.cache_creation.input_tokens', run.usage.cacheWrite);
    }
    return span;
  };
  const setResponse = (span: Span, info: ModelCallInfo) => {
    if (info.response?.id) span.setAttribute('gen_ai.response.id', info.response.id);
    if (info.response?.model) span.setAttribute('gen_ai.response.model', info.response.model);
  };

  return {
    onStart(info) {
      const span = start(`invoke_agent ${info.agentName}`, info.runPath.slice(0, -1), {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': info.agentName,
        'adk.agent.type': info.agentType,
        'adk.run_path': info.runPath.join('/'),
      });
      agents.set(keyOf(info.runPath), { span, open: true });
    },
    // Ended spans stay in the map (one run's worth): an agent transferred to after its caller ended
    // is still that caller's child, as its run path says.
    onEnd(info) {
      finishAgent(info.runPath)?.end();
    },
    onError(info, error) {
      fail(finishAgent(info.runPath), error);
    },
    onModelStart(info) {
      const r = info.request;
      const provider = r?.provider ?? '_OTHER';
      const attributes: Attributes = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': info.model,
        'gen_ai.agent.name': info.agentName,
        'adk.attempt': info.attempt,
      };
      if (r?.serverAddress) attributes['server.address'] = r.serverAddress;
      if (r?.serverPort !== undefined) attributes['server.port'] = r.serverPort;
      if (r?.temperature !== undefined) attributes['gen_ai.request.temperature'] = r.temperature;
      if (r?.topP !== undefined) attributes['gen_ai.request.top_p'] = r.topP;
      if (r?.maxTokens !== undefined) attributes['gen_ai.request.max_tokens'] = r.maxTokens;
      if (r?.seed !== undefined) attributes['gen_ai.request.seed'] = r.seed;
      if (r?.stop !== undefined) attributes['gen_ai.request.stop_sequences'] = Array.isArray(r.stop) ? r.stop : [r.stop];
      if (info.responseFormat) attributes['gen_ai.output.type'] = 'json';
      calls.set(info, start(`chat ${info.model}`, info.runPath, attributes, SpanKind.CLIENT));

      const [own, ...outer] = runsAlong(info.runPath);
      const exact = agents.get(keyOf(info.runPath));
      if (own && own === exact) {
        own.provider ??= r?.provider;
        own.model ??= info.model;
        if (info.responseFormat) own.outputType = 'json';
      }
      for (const run of own === exact ? outer : [own, ...outer]) if (run) run.innerProvider ??= r?.provider;
      if (info.tools?.length) {
        const key = keyOf(info.runPath);
        const known = toolDescriptions.get(key) ?? new Map<string, string>();
        for (const t of info.tools) if (t.description) known.set(t.name, t.description);
        toolDescriptions.set(key, known);
      }
    },
    onModelEnd(info, reply) {
      const span = calls.get(info);
      if (!span) return;
      const u = reply.usage;
      if (u) {
        span.setAttribute('gen_ai.usage.input_tokens', u.promptTokens);
        span.setAttribute('gen_ai.usage.output_tokens', u.completionTokens);
        if (u.cacheReadTokens !== undefined) span.setAttribute('gen_ai.usage.cache_read.input_tokens', u.cacheReadTokens);
        if (u.cacheWriteTokens !== undefined) span.setAttribute('gen_ai.usage.cache_creation.input_tokens', u.cacheWriteTokens);
      }
      if (reply.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [reply.finishReason]);
      setResponse(span, info);
      span.end();
      const exact = agents.get(keyOf(info.runPath));
      if (exact && reply.finishReason) exact.finish = reply.finishReason;
      if (!u) return;
      for (const run of runsAlong(info.runPath)) {
        if (!run.open) continue;
        const sum = (run.usage ??= { input: 0, output: 0 });
        sum.input += u.promptTokens;
        sum.output += u.completionTokens;
        if (u.cacheReadTokens !== undefined) sum.cacheRead = (sum.cacheRead ?? 0) + u.cacheReadTokens;
        if (u.cacheWriteTokens !== undefined) sum.cacheWrite = (sum.cacheWrite ?? 0) + u.cacheWriteTokens;
      }
    },
    onModelError(info, error) {
      const span = calls.get(info);
      if (span) setResponse(span, info);
      fail(span, error);
    },
    onToolStart(info) {
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': info.tool,
        'gen_ai.tool.call.id': info.callId,
        // Every adk tool runs in the client: the model writes the arguments, adk runs the code.
        'gen_ai.tool.type': 'function',
        'gen_ai.agent.name': info.agentName,
      };
      const description = toolDescriptions.get(keyOf(info.runPath))?.get(info.tool);
      if (description) attributes['gen_ai.tool.description'] = description;
      calls.set(info, start(`execute_tool ${info.tool}`, info.runPath, attributes));
    },
    onToolEnd(info, outcome) {
      const span = calls.get(info);
      if (!span) return;
      if (outcome.interrupted) span.setAttribute('adk.tool.interrupted', true);
      if (outcome.isError) {
        span.setAttribute('error.type', 'tool_error');
        // Not the result text: tool output is the user's data.
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool returned an error result' });
      }
      span.end();
    },
    onToolError(info, error) {
      fail(calls.get(info), error);
    },
  };
}
