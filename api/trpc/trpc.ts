import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import type { Caller } from '../../shared/domain/auth/principal';
import { AppError, validationError } from '../../shared/errors';
import { assertScopes, requireTeam } from '../auth/guard';
import { assertStorableText } from '../http/json-body';
import type { ResourceScope } from '../../shared/domain/auth/scopes';
import { withinTeam } from '../../shared/db/team-wall';
import type { RequestInfo } from '../operations/declare';

export interface TrpcContext {
  /** The request as every call receives it (operations/declare.ts). */
  request: RequestInfo;
  /** Authenticates this request (bearer, `x-team-id`, the failure throttle of its address). */
  authenticate: () => Promise<Caller>;
}

const CODES: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** Every procedure carries the scopes its declaration names. */
export interface ProcedureMeta {
  scopes: readonly ResourceScope[];
}

/**
 * tRPC keeps its own error shape, and `data` carries our envelope fields (`error`, `description`,
 * `details`), so a client reads the same words whichever interface it uses.
 */
const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
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

/** Authentication, then the scope check against the procedure's own meta; a procedure without scopes is refused. */
async function authenticate(ctx: TrpcContext, meta: ProcedureMeta | undefined, getRawInput: () => Promise<unknown>): Promise<Caller> {
  const caller = await ctx.authenticate();
  if (!meta?.scopes.length) throw new Error('tRPC procedure without scopes');
  assertScopes(caller, meta.scopes);
  // As over REST: no input nested deeper than the limit (tRPC parsed it, and zod walks it next) or
  // carrying NUL, which PostgreSQL cannot store, gets past the gateway.
  assertStorableText(await getRawInput(), 'input');
  return caller;
}

const inTeam = t.procedure.use(appErrors).use(async ({ ctx, meta, next, getRawInput }) => {
  const principal = requireTeam(await authenticate(ctx, meta, getRawInput));
  return withinTeam(principal.teamId, () => next({ ctx: { ...ctx, principal } }));
});

const asUser = t.procedure
  .use(appErrors)
  .use(async ({ ctx, meta, next, getRawInput }) => next({ ctx: { ...ctx, caller: await authenticate(ctx, meta, getRawInput) } }));

/** A procedure that needs a bearer token holding every one of `scopes`, acting in a team (`ctx.principal`). */
export const teamProcedure = (scopes: readonly ResourceScope[]) => inTeam.meta({ scopes });

/** A procedure on the caller themselves (`ctx.caller`), which a session user without a team may also call. */
export const callerProcedure = (scopes: readonly ResourceScope[]) => asUser.meta({ scopes });

/** The router's root types, for the type of the router the declarations build. */
export type TrpcRoot = (typeof t)['_config']['$types'];
