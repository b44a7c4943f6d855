import type { AnyTRPCProcedure, TRPCBuiltRouter, TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import { nodeHTTPRequestHandler } from '@trpc/server/adapters/node-http';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { hasTeam, type Caller } from '../../shared/domain/auth/principal';
import { requestFingerprint } from '../../shared/domain/idempotency/keys';
import { badRequest, validationError } from '../../shared/errors';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import type { ApiDeps } from '../deps';
import { idempotently } from '../http/idempotency';
import { operationsIn } from '../http/rate-limit';
import type { AppState } from '../http/state';
import type { OPERATIONS } from '../operations';
import { requestInfoOf, shapeOf, takesIdempotencyKey, type AnyOperation } from '../operations/declare';
import { valueSchema, type ValueOf } from '../operations/output';
import { procedureFor, router, type TrpcContext, type TrpcRoot } from './trpc';

type Declared = (typeof OPERATIONS)[number];
type WithTrpc = Extract<Declared, { trpcDoor: true }>;
type NamesOf<Op> = Op extends { name: infer N extends string; formerly?: infer F extends readonly string[] } ? N | F[number] : never;
type Names = NamesOf<WithTrpc>;
type FormerlyNamed<Op, Name> = Op extends { formerly?: infer F extends readonly string[] } ? (Name extends F[number] ? Op : never) : never;
/** The operation a procedure name serves; a former name now taken by another operation is typed as that one (its old form is deprecated). */
type OpsNamed<Ops, Name> = [Extract<Ops, { name: Name }>] extends [never] ? FormerlyNamed<Ops, Name> : Extract<Ops, { name: Name }>;
type InputOf<Op> = Op extends { input?: infer I extends z.ZodType }
  ? [I] extends [z.ZodUndefined]
    ? undefined
    : // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "every field optional" is exactly `{}` fitting the input
      {} extends z.input<I>
      ? z.input<I> | undefined
      : z.input<I>
  : never;
type OutputOf<Op> = Op extends { output: infer O extends Parameters<typeof valueSchema>[0]; trpc?: { output: infer T extends z.ZodType } }
  ? [T] extends [z.ZodNever]
    ? ValueOf<O>
    : z.output<T>
  : never;
type ProcedureNamed<Name> = [OpsNamed<WithTrpc, Name>] extends [{ kind: 'query' }]
  ? TRPCQueryProcedure<{ input: InputOf<OpsNamed<WithTrpc, Name>>; output: OutputOf<OpsNamed<WithTrpc, Name>>; meta: TrpcRoot['meta'] }>
  : TRPCMutationProcedure<{ input: InputOf<OpsNamed<WithTrpc, Name>>; output: OutputOf<OpsNamed<WithTrpc, Name>>; meta: TrpcRoot['meta'] }>;
type RouterOf<Name> = Name extends `${infer R}.${string}` ? R : never;
type ProcedureOf<Name, R extends string> = Name extends `${R}.${infer P}` ? P : never;
type AppRecord = { [R in RouterOf<Names>]: { [P in ProcedureOf<Names, R>]: ProcedureNamed<`${R}.${P}`> } };

/** The type tRPC clients import: `createTRPCClient<AppRouter>(…)`, typed from the declarations. */
export type AppRouter = TRPCBuiltRouter<TrpcRoot, AppRecord>;

interface ProcedureContext extends TrpcContext {
  caller: Caller;
}

/**
 * The tRPC door of every operation that has one, under its name and its former names. A former name
 * that is now another operation's (`teams.get` read one team; it now lists them) answers as before
 * when the input names the row, and as the new operation otherwise.
 */
export function trpcDoor(operations: readonly AnyOperation[], deps: ApiDeps): AppRouter {
  const byName = new Map<string, AnyOperation[]>();
  const add = (name: string, op: AnyOperation, own: boolean) => {
    const ops = byName.get(name) ?? [];
    byName.set(name, own ? [op, ...ops] : [...ops, op]);
  };
  for (const op of operations) {
    if (op.restOnly) continue;
    add(op.name, op, true);
    for (const old of op.formerly ?? []) add(old, op, false);
  }
  // One procedure per operation, served under each of its names.
  const procedures = new Map(operations.filter((op) => !op.restOnly).map((op) => [op, procedureOf(op, deps)]));
  const record: Record<string, Record<string, AnyTRPCProcedure>> = {};
  for (const [name, ops] of byName) {
    const [resource, procedure] = name.split('.');
    (record[resource] ??= {})[procedure] = ops.length === 1 ? (procedures.get(ops[0]) as AnyTRPCProcedure) : formerReadOf(name, ops, deps);
  }
  return router(record) as unknown as AppRouter;
}

/**
 * An input that accepts `{}` also accepts none at all: `transactions.get()` lists with the defaults.
 * A mutation's input is everything its caller sends, so its own keys are as strict as a REST body's
 * (over REST, `{id, data}` arrives as a path and a strict body; here it is one object).
 */
const inputOf = (kind: AnyOperation['kind'], schema: z.ZodType) => {
  const own = kind === 'mutation' && schema instanceof z.ZodObject ? schema.strict() : schema;
  return own.safeParse({}).success ? own.prefault({}) : own;
};

// Every output but a file or a stream has a value; those two reach tRPC only with their own `trpc` answer.
const outputOf = (op: AnyOperation): z.ZodType => op.trpc?.output ?? (valueSchema(op.output) as z.ZodType);

async function call(op: AnyOperation, ctx: ProcedureContext, input: unknown, deps: ApiDeps): Promise<unknown> {
  const theCall = { input, request: ctx.request, files: [], caller: ctx.caller, principal: ctx.caller };
  const noValue = op.output.kind === 'none' && !op.trpc;
  const run = async () => {
    const result = await (op.trpc?.run ?? op.run)(theCall as never, deps);
    return noValue ? undefined : result;
  };
  const { idempotency, caller } = ctx;
  if (!idempotency || !takesIdempotencyKey(op) || !hasTeam(caller)) return run();
  // As over REST: one request, one call; the calls of a batch would share one key and one answer.
  if (idempotency.calls > 1)
    throw badRequest('An Idempotency-Key covers one call: send the mutations of this batch one by one, each with its key');
  const claim = { key: idempotency.key, fingerprint: requestFingerprint('TRPC', op.name, input), leaseMs: deps.config.IDEMPOTENCY_LEASE };
  const outcome = await idempotently(deps.db, caller, claim, async () => ({ status: 200, body: (await run()) ?? null }));
  if (outcome.replayed) idempotency.replayed();
  return noValue ? undefined : outcome.body;
}

function procedureOf(op: AnyOperation, deps: ApiDeps): AnyTRPCProcedure {
  const base = procedureFor(op, deps.metrics.meter(op.name, 'trpc'));
  const typed = (op.input ? base.input(inputOf(op.kind, op.input)) : base).output(outputOf(op));
  const resolve = ({ ctx, input }: { ctx: ProcedureContext; input: unknown }) => call(op, ctx, input, deps);
  return op.kind === 'query' ? typed.query(resolve) : typed.mutation(resolve);
}

function formerReadOf(name: string, [own, former, ...more]: AnyOperation[], deps: ApiDeps): AnyTRPCProcedure {
  if (
    more.length ||
    own.name !== name ||
    own.kind !== former.kind ||
    own.forUser !== former.forUser ||
    own.scopes.join() !== former.scopes.join()
  )
    throw new Error(`tRPC name ${name}: its operation and the one it formerly named must be alike (kind, caller, scopes)`);
  const rowKeys = Object.keys(shapeOf(former.input));
  // Counted as the operation the name is now, whichever of the two the input picks.
  const typed = procedureFor(own, deps.metrics.meter(own.name, 'trpc'))
    .input(z.unknown())
    .output(z.union([outputOf(own), outputOf(former)]));
  const resolve = ({ ctx, input }: { ctx: ProcedureContext; input: unknown }) => {
    const named = typeof input === 'object' && input !== null && rowKeys.some((k) => k in input);
    const op = named ? former : own;
    const parsed = op.input ? inputOf(op.kind, op.input).safeParse(input) : { success: true as const, data: undefined };
    if (!parsed.success) throw validationError(parsed.error, 'input');
    return call(op, ctx, parsed.data, deps);
  };
  return own.kind === 'query' ? typed.query(resolve) : typed.mutation(resolve);
}

const PREFIX = '/trpc/';

const idempotencyOf = (ctx: Context): TrpcContext['idempotency'] => {
  const key = ctx.get('idempotency-key');
  return key ? { key, calls: operationsIn(ctx), replayed: () => ctx.res.setHeader('Idempotent-Replayed', 'true') } : undefined;
};

/** Serves the tRPC router under /trpc (batching on); koa hands the raw request over to tRPC. */
export function trpcMiddleware(appRouter: AppRouter, authenticate: RequestAuthenticator): Middleware<AppState> {
  const serve: Middleware<AppState> = async (ctx) => {
    ctx.respond = false;
    // koa starts every response at 404; tRPC only sets its own status over a 200.
    ctx.res.statusCode = 200;
    await nodeHTTPRequestHandler({
      router: appRouter,
      req: ctx.req,
      res: ctx.res,
      path: ctx.path.slice(PREFIX.length),
      maxBodySize: 1024 * 1024,
      allowBatching: true,
      createContext: () => ({
        request: requestInfoOf(ctx),
        authenticate: () => authenticate(ctx),
        idempotency: idempotencyOf(ctx),
        state: ctx.state,
      }),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') ctx.state.log.error({ err: error.cause ?? error, path }, 'trpc error');
      },
    });
  };
  // Not async itself: a request for another door passes by without a promise of its own.
  return (ctx, next) => (ctx.path.startsWith(PREFIX) ? (serve(ctx, next) as Promise<void>) : next());
}
