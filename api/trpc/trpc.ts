import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import type { Caller } from '../../shared/domain/auth/principal';
import { AppError, validationError } from '../../shared/errors';
import { enter } from '../auth/guard';
import { assertStorableText } from '../http/json-body';
import type { RequestInfo } from '../operations/declare';
import type { AppState } from '../http/state';
import type { RequestMeter } from '../metrics';

export interface TrpcContext {
  /** The request as every call receives it (operations/declare.ts). */
  request: RequestInfo;
  /** Authenticates this request (bearer, `x-team-id`, the failure throttle of its address). */
  authenticate: () => Promise<Caller>;
  /** The request's Idempotency-Key, when it carries one, with how many calls the request holds. */
  idempotency?: { key: string; calls: number; replayed: () => void };
  /** The request's state: a procedure that counts its call marks it counted (api/metrics.ts). */
  state: AppState;
}

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  405: 'METHOD_NOT_SUPPORTED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * tRPC keeps its own error shape, and `data` carries our envelope fields (`error`, `description`,
 * `details`), so a client reads the same words whichever interface it uses.
 */
const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause instanceof ZodError ? validationError(error.cause, 'input') : error.cause;
    const envelope =
      cause instanceof AppError
        ? cause.toBody()
        : error.code === 'INTERNAL_SERVER_ERROR'
          ? { error: 'Internal Server Error', description: 'Something went wrong on our side.' }
          : { error: error.code, description: error.message };
    const { stack: _stack, ...data } = shape.data;
    return { ...shape, message: envelope.description, data: { ...data, ...envelope } };
  },
});

export const router = t.router;

// AppErrors thrown by services, the guard or authentication become TRPCErrors with the matching HTTP status.
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.description, cause });
  }
  return result;
});

/**
 * The procedure an operation starts from: each call counted by the operation's meter (every call of
 * a batch is one, with the status tRPC gives it), its caller authenticated and let in (auth/guard.ts).
 */
export const procedureFor = (op: Parameters<typeof enter>[0], meter: RequestMeter) =>
  t.procedure
    .use(async ({ ctx, next }) => {
      const startedAt = performance.now();
      ctx.state.metered = true;
      const result = await next();
      meter.record(result.ok ? 200 : getHTTPStatusCodeFromError(result.error), startedAt);
      return result;
    })
    .use(appErrors)
    .use(async ({ ctx, next, getRawInput }) => {
      const caller = await ctx.authenticate();
      return enter(op, caller, ctx.request, async () => {
        // As over REST: no input nested deeper than the limit (tRPC parsed it, and zod walks it next) or
        // carrying NUL, which PostgreSQL cannot store, gets past the gateway.
        assertStorableText(await getRawInput(), 'input');
        return next({ ctx: { ...ctx, caller } });
      });
    });

/** The router's root types, for the type of the router the declarations build. */
export type TrpcRoot = (typeof t)['_config']['$types'];
