import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config';
import { traceFetch } from './fetch-spans';

/** What a process traces with, once tracing is on: the Temporal worker hands its workflows' spans to the same processor. */
export interface Tracing {
  readonly processor: SpanProcessor;
  readonly resource: Resource;
  /** Sends what is still buffered, then stops tracing; never rejects (a collector away at shutdown costs those spans only). */
  shutdown(): Promise<void>;
}

/**
 * Turns tracing on when OTEL_EXPORTER_OTLP_ENDPOINT is set, and does nothing otherwise: the SDK's modules
 * are imported here and only here, so a process without tracing never loads them. Call it before the
 * process opens its database pool or server, so the first query and request are seen.
 */
export function startTracing(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
  service: 'api' | 'worker',
): Promise<Tracing | undefined> {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return Promise.resolve(undefined);
  // The tracer provider and the instrumentations' patches are the process's, not an app's: a process that
  // runs the API and a worker together (`npm start`) starts tracing once, under the first one's name.
  processTracing ??= start(endpoint, config.OTEL_SERVICE_NAME ?? `finops-${service}`);
  return processTracing;
}

let processTracing: Promise<Tracing> | undefined;

async function start(endpoint: string, serviceName: string): Promise<Tracing> {
  const [
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { Resource },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const resource = new Resource({ 'service.name': serviceName });
  const processor = new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // The global provider, AsyncLocalStorage context and W3C traceparent propagation: a caller's traceparent is continued.
  provider.register();
  const instrumentations = [
    // Outbound `node:http` calls only (the S3 client's): the API's requests are its own spans
    // (api/http/request-id.ts), and `fetch` is seen on undici's channels (fetch-spans.ts).
    new HttpInstrumentation({
      disableIncomingRequestInstrumentation: true,
      requireParentforOutgoingSpans: true,
      // A query string may carry a signature or a token: spans keep the path only.
      requestHook: (span, req) => {
        if (!('path' in req)) return;
        const path = req.path.split('?')[0];
        span.setAttribute('http.target', path);
        span.setAttribute('http.url', `${req.protocol}//${req.host}${path}`);
      },
    }),
    // No parameter values on the spans: they are customers' data. A query outside any trace (a relay's
    // poll, a scrape's backlog count, every few seconds) would be a trace of one span each: none.
    new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
  ];
  for (const i of instrumentations) i.setTracerProvider(provider);
  // The HTTP instrumentation patches `http` when it is next required; this process loaded it long before.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('node:http');
  const untraceFetch = traceFetch();
  return {
    processor,
    resource,
    async shutdown() {
      untraceFetch();
      for (const i of instrumentations) i.disable();
      await provider.shutdown().catch(() => undefined);
    },
  };
}
