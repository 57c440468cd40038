/**
 * OpenTelemetry export for the CLI: with `--otel`, or when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, the runtime's spans go over OTLP/HTTP to that
 * endpoint (default http://localhost:4318). The exporter reads the standard OTEL_* variables itself;
 * nothing here prints them. The SDK loads only when export is on.
 */
import { namedExports } from '../core/named-exports.js';

export interface OtelExport {
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

export function otelWanted(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return !!flag || !!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || !!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
}

let exporting = false;

/** Whether this process exports spans: teams trace only then (no tracing code loads otherwise). */
export function otelExporting(): boolean {
  return exporting;
}

export async function startOtelExport(): Promise<OtelExport> {
  const [{ trace }, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api').then((m) => namedExports(m, 'trace')),
    import('@opentelemetry/sdk-trace-base').then((m) => namedExports(m, 'BasicTracerProvider')),
    import('@opentelemetry/exporter-trace-otlp-http').then((m) => namedExports(m, 'OTLPTraceExporter')),
    import('@opentelemetry/resources').then((m) => namedExports(m, 'resourceFromAttributes')),
  ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME?.trim() || 'adk' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  trace.setGlobalTracerProvider(provider);
  exporting = true;
  return {
    async shutdown() {
      await provider.shutdown().catch(() => {});
    },
  };
}

/** Runs a command with export on when wanted, flushing the spans before the command returns. */
export async function withOtel<T>(flag: boolean | undefined, run: () => Promise<T>): Promise<T> {
  const otel = otelWanted(flag) ? await startOtelExport() : undefined;
  try {
    return await run();
  } finally {
    await otel?.shutdown();
  }
}

