import type { ClientInterceptors } from '@temporalio/client';

/**
 * The Temporal client's tracing interceptor: each workflow start, signal or query is a span of the caller's
 * trace, and its context travels in the workflow's headers to the worker. Imported only when tracing is on.
 */
export async function tracedTemporalClient(): Promise<ClientInterceptors> {
  const { OpenTelemetryWorkflowClientInterceptor } = await import('@temporalio/interceptors-opentelemetry');
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
