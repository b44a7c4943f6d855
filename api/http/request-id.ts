import { randomUUID } from 'node:crypto';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { AppState } from './state';

// A caller's id is echoed only when it is a sane token, so logs cannot be stuffed through it.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * With tracing on, the request's id is its trace id (a caller's valid traceparent included): a log line
 * or an error envelope leads straight to the trace. Without, the caller's X-Request-Id or a new UUID.
 */
export function requestId(): Middleware<AppState> {
  return (ctx, next) => {
    const span = trace.getActiveSpan()?.spanContext();
    const given = ctx.get('x-request-id');
    ctx.state.requestId = span && isSpanContextValid(span) ? span.traceId : ACCEPTABLE.test(given) ? given : randomUUID();
    ctx.set('x-request-id', ctx.state.requestId);
    return next();
  };
}
