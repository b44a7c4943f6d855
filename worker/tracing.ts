import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { Tracing } from '../shared/tracing/start';

/** What a worker adds when tracing is on. */
export interface WorkerTracing {
  /** Each activity a span, child of the workflow's "schedule" span; its queries and calls are its children. */
  activity: ActivityInterceptorsFactory;
  /** Where the workflow sandbox's spans leave it: the process's span processor. */
  sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }>;
}

export async function workerTracing(tracing: Tracing): Promise<WorkerTracing> {
  const otel = await import('@temporalio/interceptors-opentelemetry');
  return {
    activity: (ctx) => ({
      inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
      outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
    }),
    sinks: { exporter: otel.makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}
