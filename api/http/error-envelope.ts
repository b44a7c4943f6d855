import type { Middleware } from 'koa';
import { AppError, type ErrorBody } from '../../shared/errors';
import type { AppState } from './state';

/**
 * Every failure leaves as `{error, description}`. Unexpected errors become a 500 that names the
 * request id (to find the log line) and never a stack or an internal message.
 */
export function errorEnvelope(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.respond === false) return; // tRPC wrote its own response
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'Not Found', `No route for ${ctx.method} ${ctx.path}`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new AppError(405, 'Method Not Allowed', `${ctx.method} is not allowed on ${ctx.path}`);
      }
    } catch (err) {
      const body = toErrorBody(err, ctx.state.requestId);
      if (body.status >= 500) ctx.state.log.error({ err }, 'unhandled error');
      ctx.status = body.status;
      ctx.body = body.body;
      if (body.headers) ctx.set(body.headers);
    }
  };
}

/** The status an error is answered with (toErrorBody's), without building its body. */
export function statusOfError(err: unknown): number {
  if (err instanceof AppError) return err.status;
  const e = err as { status?: unknown; expose?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose
    ? e.status
    : 500;
}

export function toErrorBody(err: unknown, requestId: string): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (err instanceof AppError) return { status: err.status, body: err.toBody(), headers: err.headers };
  // Anything can be thrown, `null` included: only an object can carry the fields below.
  const e = (typeof err === 'object' && err !== null ? err : {}) as { status?: number; expose?: boolean; message?: string };
  // Errors thrown by koa itself carry an HTTP status and a safe message.
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    if (e.status === 413) return { status: 413, body: { error: 'Payload Too Large', description: 'Request body too large' } };
    if (e.status === 415)
      return { status: 415, body: { error: 'Unsupported Media Type', description: e.message ?? 'Unsupported content type' } };
    return { status: e.status, body: { error: 'Bad Request', description: e.message ?? 'Bad request' } };
  }
  return {
    status: 500,
    body: {
      error: 'Internal Server Error',
      description: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
      requestId,
    },
  };
}
