import diagnostics from 'node:diagnostics_channel';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/** What undici publishes of a request on its diagnostics channels (the fields read here). */
interface UndiciRequest {
  origin: string;
  method: string;
  path: string;
  addHeader(name: string, value: string): unknown;
}

/**
 * A client span for each `fetch` made inside a trace (the providers' calls), with the traceparent passed on.
 * The HTTP instrumentation sees only `node:http`; fetch runs on undici, which reports its requests on
 * diagnostics channels. A fetch outside any trace (a background poll) makes no span of its own.
 * Returns the unsubscribe.
 */
export function traceFetch(): () => void {
  const tracer = trace.getTracer('finops-fetch');
  const open = new WeakMap<object, Span>();
  const channels: Record<string, (message: unknown) => void> = {
    'undici:request:create': (message) => {
      const { request } = message as { request: UndiciRequest };
      const parent = context.active();
      if (!trace.getSpan(parent)) return;
      const path = request.path.split('?')[0];
      const span = tracer.startSpan(
        `${request.method} ${request.origin}`,
        {
          kind: SpanKind.CLIENT,
          // The path only: a query string may carry a key.
          attributes: {
            'http.request.method': request.method,
            'server.address': new URL(request.origin).hostname,
            'url.full': request.origin + path,
          },
        },
        parent,
      );
      open.set(request, span);
      propagation.inject(trace.setSpan(parent, span), request, { set: (r, name, value) => r.addHeader(name, value) });
    },
    'undici:request:headers': (message) => {
      const { request, response } = message as { request: object; response: { statusCode: number } };
      const span = open.get(request);
      span?.setAttribute('http.response.status_code', response.statusCode);
      if (response.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
    },
    'undici:request:trailers': (message) => {
      const { request } = message as { request: object };
      open.get(request)?.end();
      open.delete(request);
    },
    'undici:request:error': (message) => {
      const { request, error } = message as { request: object; error: Error };
      const span = open.get(request);
      span?.recordException(error);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      span?.end();
      open.delete(request);
    },
  };
  for (const [name, listener] of Object.entries(channels)) diagnostics.subscribe(name, listener);
  return () => {
    for (const [name, listener] of Object.entries(channels)) diagnostics.unsubscribe(name, listener);
  };
}
