import type Router from '@koa/router';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { encode } from 'eventsource-encoder';
import { z } from 'zod';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { hasTeam, type Caller, type Principal } from '../../shared/domain/auth/principal';
import type { ResourceScope } from '../../shared/domain/auth/scopes';
import { AppError, validationError } from '../../shared/errors';
import { assertScopes, requireTeam } from '../auth/guard';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import { assertStorableText, readJsonBody } from '../http/json-body';
import { idempotently } from './idempotency';
import type { Db } from '../../shared/db/knex';
import { withinTeam } from '../../shared/db/team-wall';
import type { AppState } from '../http/state';
import { errorResponses } from '../openapi-errors';
import { bodyOf, bodySchema, type FileBody, type HandlerResult, type Reply } from './replies';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * One REST operation, described once: the koa route, its scopes, its validation, its reply and its
 * OpenAPI entry all come from this object. The handler's result is checked against `reply` when
 * this compiles, and against its schema at run time when VALIDATE_RESPONSES is on (tests).
 */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Reply> extends RouteDescription<
  P,
  Q,
  B,
  R
> {
  handler: (input: { principal: Principal; params: z.output<P>; query: z.output<Q>; body: z.output<B>; ctx: Context }) => HandlerResult<R>;
}

/**
 * An operation on the caller themselves rather than on a team (their profile, their invitations,
 * the teams they belong to): it also serves a session user who belongs to no team yet.
 */
export interface UserRouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Reply> extends RouteDescription<
  P,
  Q,
  B,
  R
> {
  handler: (input: { caller: Caller; params: z.output<P>; query: z.output<Q>; body: z.output<B>; ctx: Context }) => HandlerResult<R>;
}

interface RouteDescription<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends Reply> {
  method: Method;
  /** koa-style path, e.g. `/transactions/:id`. */
  path: string;
  /** Every scope the caller needs; at least one. */
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  reply: R;
  /** For `one` replies: 201 for a creation, 202 for work that continues in the background. */
  status?: 200 | 201 | 202;
  /**
   * A `multipart/form-data` body the handler streams itself (from `ctx.req`), described here for
   * the OpenAPI document. Such a route takes no JSON body and no Idempotency-Key: what it stores is
   * keyed by content, so a retry finds what the first attempt stored.
   */
  multipart?: MultipartDescription;
  /** A credential this route takes besides a bearer token (a signed upload URL); null when the request has none. */
  credential?: (ctx: Context) => Promise<Caller | null>;
}

export interface MultipartDescription {
  /** The form's parts: file parts as `z.string().meta({ format: 'binary' })` (or arrays of them), text parts as strings. */
  form: z.ZodObject;
  description: string;
}

/** A route with its types settled: what the router mounts and the OpenAPI document lists. */
export interface Route {
  method: Method;
  path: string;
  scopes: readonly ResourceScope[];
  summary: string;
  description?: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  reply: Reply;
  status: number;
  multipart?: MultipartDescription;
  credential?: (ctx: Context) => Promise<Caller | null>;
  /** False for operations on the caller themselves, which a session user without a team may use. */
  needsTeam: boolean;
  /** Validates the input and runs the handler for a caller whose scopes were checked. */
  run(ctx: Context, caller: Caller): Promise<unknown>;
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

function inputOf<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  spec: { params?: P; query?: Q; body?: B },
  ctx: Context,
): { params: z.output<P>; query: z.output<Q>; body: z.output<B>; ctx: Context } {
  return {
    ctx,
    params: spec.params ? parse(spec.params, ctx.params, 'path parameters') : (undefined as z.output<P>),
    query: spec.query ? parse(spec.query, ctx.query, 'query parameters') : (undefined as z.output<Q>),
    body: spec.body ? parse(spec.body, (ctx.request as { body?: unknown }).body, 'request body') : (undefined as z.output<B>),
  };
}

export function defineRoute<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends Reply = Reply,
>(spec: RouteSpec<P, Q, B, R>): Route {
  const { handler, ...described } = spec;
  return {
    ...described,
    status: spec.reply.kind === 'none' ? 204 : (spec.status ?? 200),
    needsTeam: true,
    run: async (ctx, caller) => handler({ principal: requireTeam(caller), ...inputOf<P, Q, B>(spec, ctx) }),
  };
}

/** A route on the caller themselves (see UserRouteSpec). */
export function defineUserRoute<
  P extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = z.ZodUndefined,
  B extends z.ZodType = z.ZodUndefined,
  R extends Reply = Reply,
>(spec: UserRouteSpec<P, Q, B, R>): Route {
  const { handler, ...described } = spec;
  return {
    ...described,
    status: spec.reply.kind === 'none' ? 204 : (spec.status ?? 200),
    needsTeam: false,
    run: async (ctx, caller) => handler({ caller, ...inputOf<P, Q, B>(spec, ctx) }),
  };
}

export const operationName = (route: Pick<Route, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

export interface MountOptions {
  /** Check every JSON response against its schema (tests): a drift fails loudly instead of reaching clients. */
  validateResponses: boolean;
  /** Where Idempotency-Key outcomes are kept. */
  db: Db;
}

export function mountRoutes(router: Router<AppState>, routes: Route[], authenticate: RequestAuthenticator, options: MountOptions): void {
  for (const route of routes) {
    const schema = bodySchema(route.reply);
    router[route.method](route.path, async (ctx) => {
      const caller = (await route.credential?.(ctx)) ?? (await authenticate(ctx));
      if (hasTeam(caller)) ctx.state.principal = caller;
      assertScopes(caller, route.scopes);
      if (!route.needsTeam) return serve(ctx, caller);
      // Everything after this line reads and writes through the team's row-level security too.
      return withinTeam(requireTeam(caller).teamId, () => serve(ctx, caller));
    });

    async function serve(ctx: Context, caller: Caller) {
      assertStorableText(ctx.query, 'query parameters');
      // Only now, for a caller with the right to this operation, is a body read.
      if (route.body) (ctx.request as { body?: unknown }).body = await readJsonBody(ctx);
      if (route.reply.kind === 'events') {
        ctx.status = route.status;
        return sendEvents(ctx, (await route.run(ctx, caller)) as AsyncIterable<{ event: string; data: unknown }>);
      }
      const respond = async () => {
        const result = await route.run(ctx, caller);
        if (route.reply.kind === 'none' || route.reply.kind === 'file') return { status: route.status, body: result };
        const body = bodyOf(route.reply, result);
        if (options.validateResponses && schema) {
          const checked = schema.safeParse(body);
          if (!checked.success)
            throw new Error(`The response of ${operationName(route)} does not match its schema: ${checked.error.message}`);
        }
        return { status: route.status, body };
      };
      const key = route.method === 'post' && !route.multipart ? ctx.get('idempotency-key') : '';
      const { status, body, replayed } =
        key && hasTeam(caller) ? await idempotently(options.db, ctx, caller, key, respond) : { ...(await respond()), replayed: false };
      ctx.status = status;
      if (replayed) ctx.set('Idempotent-Replayed', 'true');
      if (route.reply.kind === 'none') return;
      if (route.reply.kind === 'file') return sendFile(ctx, body as FileBody);
      ctx.body = body;
    }
  }
}

function sendFile(ctx: Context, file: FileBody) {
  ctx.type = file.mimeType;
  // RFC 6266: koa's attachment() writes both `filename` (ASCII fallback) and `filename*` (UTF-8).
  ctx.attachment(file.fileName);
  if (file.size !== undefined) ctx.length = file.size;
  ctx.body = file.body;
}

/**
 * Streams server-sent events. The status and headers are sent with the first event, so a failure
 * after it cannot become an error status: it ends the stream as an `error` event with the envelope.
 */
function sendEvents(ctx: Context, source: AsyncIterable<{ event: string; data: unknown }>) {
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
  const state = ctx.state as AppState;
  async function* frames() {
    try {
      for await (const e of source) yield encode({ event: e.event, data: JSON.stringify(e.data) });
    } catch (err) {
      const envelope =
        err instanceof AppError
          ? err.toBody()
          : { error: 'Internal Server Error', description: `Something went wrong on our side; quote request id ${state.requestId}` };
      if (!(err instanceof AppError)) state.log.error({ err }, 'event stream failed');
      yield encode({ event: 'error', data: JSON.stringify(envelope) });
    }
  }
  ctx.body = Readable.from(frames());
}

const toOpenApiPath = (p: string) => p.replace(/:(\w+)/g, '{$1}');

const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().max(255).optional().meta({
    description:
      'Makes a retry safe: the first request with a key runs, and for 24 hours the same key with the same request returns its response (with `Idempotent-Replayed: true`) instead of running again. The same key with a different request is 422; while the first is still running, 409. Keys are per credential.',
  }),
});

export function registerRoutes(registry: OpenAPIRegistry, routes: Route[]): void {
  for (const route of routes) {
    const schema = bodySchema(route.reply);
    const success: RouteConfig['responses'][string] =
      route.reply.kind === 'none'
        ? { description: 'Done; no body.' }
        : route.reply.kind === 'events'
          ? { description: route.reply.description, content: { 'text/event-stream': { schema: route.reply.event } } }
          : route.reply.kind === 'file'
            ? {
                description: route.reply.description,
                content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
              }
            : { description: 'Success.', content: { 'application/json': { schema: schema ?? z.unknown() } } };
    registry.registerPath({
      method: route.method,
      path: toOpenApiPath(route.path),
      summary: route.summary,
      description: [route.description, `Required scopes: \`${route.scopes.join('`, `')}\`.`].filter(Boolean).join('\n\n'),
      tags: [route.tag],
      security: [{ bearerAuth: [...route.scopes] }],
      request: {
        params: route.params as z.ZodObject | undefined,
        query: route.query as z.ZodObject | undefined,
        body: route.multipart
          ? {
              description: route.multipart.description,
              content: { 'multipart/form-data': { schema: route.multipart.form } },
              required: true,
            }
          : route.body
            ? { content: { 'application/json': { schema: route.body } }, required: true }
            : undefined,
        headers: route.method === 'post' && !route.multipart ? idempotencyHeader : undefined,
      },
      responses: {
        [route.status]: success,
        ...errorResponses(route.method === 'post' ? [400, 401, 403, 404, 409, 413, 415, 422, 429, 500] : [400, 401, 403, 404, 429, 500]),
      },
    });
  }
}
