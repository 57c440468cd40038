import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { RunCallbacks } from '../callbacks.js';

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
    // The namespace: its `default` export holds only the five API singletons.
    (m) => (m.SpanStatusCode ? m : ((m as { default?: OtelApi }).default ?? m)),
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

/**
 * Callbacks that record a run as OpenTelemetry spans, after the GenAI semantic conventions:
 * `invoke_agent {agent}` per agent run, `chat {model}` per model request (with token usage and
 * finish reason) and `execute_tool {tool}` per tool call, each the child of the agent run it belongs
 * to. Message text and tool arguments are not recorded. With no SDK registered the spans are
 * no-ops; without `@opentelemetry/api` installed this returns undefined.
 */
export async function otelTracing(options: OtelTracingOptions = {}): Promise<RunCallbacks | undefined> {
  const otel = await loadOtelApi();
  if (!otel) return undefined;
  // No SDK registered: every span would be a no-op, so the run is not observed at all.
  if (!options.tracer && !sdkRegistered(otel)) return undefined;
  const tracer = (options.tracer as Tracer | undefined) ?? otel.trace.getTracer('adk');
  const { SpanKind, SpanStatusCode, context, trace } = otel;
  const agents = new Map<string, Span>();
  const calls = new WeakMap<object, Span>();

  /** The span of the agent run at `runPath`, or of the nearest run that contains it. */
  const parentOf = (runPath: readonly string[]) => {
    for (let n = runPath.length; n > 0; n--) {
      const span = agents.get(runPath.slice(0, n).join('\u0000'));
      if (span) return trace.setSpan(context.active(), span);
    }
    return context.active();
  };
  const start = (name: string, runPath: readonly string[], attributes: Attributes, kind = SpanKind.INTERNAL) => tracer.startSpan(name, { kind, attributes }, parentOf(runPath));
  const fail = (span: Span | undefined, error: Error) => {
    if (!span) return;
    span.recordException(error);
    span.setAttribute('error.type', (error as { code?: string }).code ?? error.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    span.end();
  };

  return {
    onStart(info) {
      const key = info.runPath.join('\u0000');
      const span = start(`invoke_agent ${info.agentName}`, info.runPath.slice(0, -1), {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': info.agentName,
        'adk.agent.type': info.agentType,
        'adk.run_path': info.runPath.join('/'),
      });
      agents.set(key, span);
    },
    // Ended spans stay in the map (one run's worth): an agent transferred to after its caller ended
    // is still that caller's child, as its run path says.
    onEnd(info) {
      agents.get(info.runPath.join('\u0000'))?.end();
    },
    onError(info, error) {
      fail(agents.get(info.runPath.join('\u0000')), error);
    },
    onModelStart(info) {
      calls.set(
        info,
        start(
          `chat ${info.model}`,
          info.runPath,
          { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': info.model, 'gen_ai.agent.name': info.agentName, 'adk.attempt': info.attempt },
          SpanKind.CLIENT,
        ),
      );
    },
    onModelEnd(info, reply) {
      const span = calls.get(info);
      if (!span) return;
      if (reply.usage) {
        span.setAttribute('gen_ai.usage.input_tokens', reply.usage.promptTokens);
        span.setAttribute('gen_ai.usage.output_tokens', reply.usage.completionTokens);
      }
      if (reply.finishReason) span.setAttribute('gen_ai.response.finish_reasons', [reply.finishReason]);
      span.end();
    },
    onModelError(info, error) {
      fail(calls.get(info), error);
    },
    onToolStart(info) {
      calls.set(
        info,
        start(`execute_tool ${info.tool}`, info.runPath, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': info.tool,
          'gen_ai.tool.call.id': info.callId,
          'gen_ai.agent.name': info.agentName,
        }),
      );
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
