import { randomUUID } from 'node:crypto';
import { context, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Middleware, ParameterizedContext } from 'koa';
import { boundedMethod } from './methods';
import type { AppState } from './state';

// A caller's id is echoed only when it is a sane token, so logs cannot be stuffed through it.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;
// Probes and scrapes come every few seconds and say nothing about what a caller asked for.
const UNTRACED_PATHS = new Set(['/livez', '/readyz', '/health', '/metrics']);

const untracedId = (ctx: ParameterizedContext<AppState>) => {
  const given = ctx.get('x-request-id');
  return ACCEPTABLE.test(given) ? given : randomUUID();
};

/**
 * The request's id: the caller's X-Request-Id or a new UUID. With `traced` (tracing is on), each request
 * is one server span, the caller's traceparent continued, and its id is the span's trace id: a log line or
 * an error envelope leads straight to the trace. The queries, workflow starts and provider calls made while
 * it runs are the span's children.
 */
export function requestId(opts: { traced?: boolean } = {}): Middleware<AppState> {
  if (opts.traced) return tracedRequest();
  return (ctx, next) => {
    ctx.state.requestId = untracedId(ctx);
    ctx.set('x-request-id', ctx.state.requestId);
    return next();
  };
}

/**
 * Our own server span rather than the HTTP instrumentation's: that one builds dozens of attributes from
 * the request and response on every call, which cost more than the request itself. This one carries what
 * a trace is read by, each of bounded values: the method, the route template and the status.
 */
function tracedRequest(): Middleware<AppState> {
  const tracer = trace.getTracer('finops-api');
  return (ctx, next) => {
    if (UNTRACED_PATHS.has(ctx.path)) {
      ctx.state.requestId = untracedId(ctx);
      ctx.set('x-request-id', ctx.state.requestId);
      return next();
    }
    const method = boundedMethod(ctx.method);
    const parent = propagation.extract(ROOT_CONTEXT, ctx.req.headers);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
    // No tracer provider registered (an app built with the setting but not started by api/main.ts): no trace id to give.
    const spanContext = span.spanContext();
    ctx.state.requestId = isSpanContextValid(spanContext) ? spanContext.traceId : untracedId(ctx);
    ctx.set('x-request-id', ctx.state.requestId);
    return context.with(trace.setSpan(parent, span), next).then(
      () => endRequest(span, ctx, method),
      (err: unknown) => {
        endRequest(span, ctx, method, err);
        throw err;
      },
    );
  };
}

function endRequest(span: Span, ctx: ParameterizedContext<AppState>, method: string, err?: unknown): void {
  // Set by @koa/router on the route that answered: the template, never the ids in the path.
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof route === 'string') {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
  }
  const status = err ? 500 : ctx.respond === false ? ctx.res.statusCode : ctx.status;
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
