import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import type { Principal } from '../../shared/domain/auth/principal';
import { AppError, validationError } from '../../shared/errors';
import type { Authenticator } from '../auth/authenticate';
import { assertScopes } from '../auth/guard';
import type { Operation } from '../auth/required-scopes';

export interface TrpcContext {
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  authorization: string | undefined;
  authenticate: Authenticator;
}

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
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
export const publicProcedure = t.procedure;

// AppErrors thrown by services become TRPCErrors with the matching HTTP status.
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: CODES[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.description, cause });
  }
  return result;
});

/** A procedure that needs a bearer token holding the scopes REQUIRED_SCOPES lists for `operation`. */
export const procedure = (operation: Operation) =>
  t.procedure.use(appErrors).use(async ({ ctx, next }) => {
    let principal: Principal;
    try {
      principal = await ctx.authenticate(ctx.authorization);
      assertScopes(principal, operation);
    } catch (err) {
      if (err instanceof AppError) throw new TRPCError({ code: CODES[err.status] ?? 'INTERNAL_SERVER_ERROR', message: err.description, cause: err });
      throw err;
    }
    return next({ ctx: { ...ctx, principal } });
  });
