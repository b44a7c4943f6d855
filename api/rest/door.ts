import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { hasTeam, type Caller } from '../../shared/domain/auth/principal';
import { requestFingerprint } from '../../shared/domain/idempotency/keys';
import { validationError } from '../../shared/errors';
import { enter } from '../auth/guard';
import type { RequestAuthenticator } from '../auth/failure-throttle';
import type { ApiDeps } from '../deps';
import { sendEvents } from '../http/event-stream';
import { idempotently } from '../http/idempotency';
import { attachmentDisposition } from '../http/content-disposition';
import { assertStorableText, readJsonBody } from '../http/json-body';
import { setJsonBody } from '../http/json-response';
import { spoolMultipart, type SpooledUpload } from '../http/multipart';
import type { AppState } from '../http/state';
import { statusOfError } from '../http/error-envelope';
import { doorOf, requestInfoOf, shapeOf, takesIdempotencyKey, type AnyOperation, type Method } from '../operations/declare';
import { restBodyOf, restBodySchema, type FileBody } from '../operations/output';

export interface RestDoorOptions {
  /** Check every JSON response against its schema (tests): a drift fails loudly instead of reaching clients. */
  validateResponses: boolean;
}

/** An operation's REST door with everything a request needs worked out once, at start-up. */
export interface Mounted {
  op: AnyOperation;
  method: Method;
  path: string;
  pathKeys: string[];
  /** Where the fields other than the path's come from. */
  rest: 'query' | 'body' | 'form' | 'none';
  /** The input part by part, as a REST client sends it (for the OpenAPI document, and tests that probe every door). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  status: number;
  responseSchema: z.ZodType | undefined;
}

const pick = (shape: Record<string, z.ZodType>, keys: string[]) => z.object(Object.fromEntries(keys.map((k) => [k, shape[k]])));

export function mountedOf(op: AnyOperation): Mounted {
  const { method, path, pathKeys } = doorOf(op.rest ?? fail(op));
  const shape = shapeOf(op.input);
  const others = Object.keys(shape).filter((k) => !pathKeys.includes(k));
  const rest = op.multipart ? 'form' : others.length === 0 ? 'none' : method === 'GET' ? 'query' : 'body';
  // The input itself where it is all one part, so a named schema keeps its name in the document.
  const whole = pathKeys.length === 0 && op.input ? op.input : pick(shape, others);
  return {
    op,
    method,
    path,
    pathKeys,
    rest,
    params: pathKeys.length ? pick(shape, pathKeys) : undefined,
    query: rest === 'query' ? (whole as z.ZodObject) : undefined,
    body: rest !== 'body' ? undefined : op.body ? shape[op.body] : whole,
    status: op.output.kind === 'none' ? 204 : (op.status ?? 200),
    responseSchema: restBodySchema(op.output),
  };
}

const fail = (op: AnyOperation): never => {
  throw new Error(`operation ${op.name} has no REST door`);
};

/**
 * Static segments before parameters, whatever order the declarations come in: `/transactions/bulk`
 * must be tried before `/transactions/:id` would take `bulk` for an id.
 */
function specificFirst(a: Mounted, b: Mounted): number {
  const key = (m: Mounted) => m.path.split('/').map((s) => (s.startsWith(':') ? '\u{10FFFF}' : s));
  const [as, bs] = [key(a), key(b)];
  for (let i = 0; i < Math.min(as.length, bs.length); i++) if (as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1;
  return as.length - bs.length;
}

/**
 * The REST door of every operation that has one. Routes are grouped by their path's first segment
 * (`transactions`, `invoices`, …), and a request goes straight to its group's router: it is matched
 * against a handful of patterns, not against every operation's. `routers` lists the groups, for
 * whoever lists the gateway's routes.
 */
export function restDoor(operations: readonly AnyOperation[], deps: ApiDeps, authenticate: RequestAuthenticator, options: RestDoorOptions) {
  const groups = new Map<string, Router<AppState>>();
  for (const m of operations
    .filter((op) => op.rest)
    .map(mountedOf)
    .sort(specificFirst)) {
    const root = m.path.split('/')[1];
    const router = groups.get(root) ?? new Router<AppState>();
    groups.set(root, router);
    const meter = deps.metrics.meter(m.op.name, 'rest');
    router.register(m.path, [m.method], async (ctx: Context) => {
      const startedAt = performance.now();
      const state = ctx.state as AppState;
      state.metered = true;
      try {
        const caller = (await m.op.credential?.(ctx, deps)) ?? (await authenticate(ctx));
        if (hasTeam(caller)) state.principal = caller;
        await enter(m.op, caller, { requestId: state.requestId, ip: ctx.ip }, () => serve(m, ctx, caller, deps, options));
      } catch (err) {
        meter.record(statusOfError(err), startedAt);
        throw err;
      }
      meter.record(ctx.status, startedAt);
    });
  }
  // A known path with another method is 405 (allowedMethods), an unknown one falls through to 404.
  const dispatch = new Map(
    [...groups].map(([root, router]) => {
      // The router's middleware adds `params` to the context it is given: any koa context will do.
      const routes = router.routes() as unknown as Middleware<AppState>;
      const allowed = router.allowedMethods() as unknown as Middleware<AppState>;
      const serveGroup: Middleware<AppState> = (ctx, next) => routes(ctx, () => allowed(ctx, next) as Promise<void>) as Promise<void>;
      return [root, serveGroup] as const;
    }),
  );
  const door: Middleware<AppState> = (ctx, next) => {
    const end = ctx.path.indexOf('/', 1);
    const group = dispatch.get(end < 0 ? ctx.path.slice(1) : ctx.path.slice(1, end));
    return group ? (group(ctx, next) as Promise<void>) : next();
  };
  return Object.assign(door, { routers: [...groups.values()] });
}

async function serve(m: Mounted, ctx: Context, caller: Caller, deps: ApiDeps, options: RestDoorOptions): Promise<void> {
  assertStorableText(ctx.query, 'query parameters');
  const { op } = m;
  // Only now, for a caller with the right to this operation, is a body read.
  let upload: SpooledUpload | undefined;
  if (m.rest === 'body') (ctx.request as { body?: unknown }).body = await readJsonBody(ctx);
  if (op.multipart) upload = await spoolMultipart(ctx, op.multipart.limits(deps.config));
  try {
    const input = inputOf(m, ctx, upload);
    const call = { input, request: requestInfoOf(ctx), files: upload?.files ?? [], caller, principal: caller };
    if (op.output.kind === 'events') {
      ctx.status = m.status;
      return sendEvents(ctx, (await op.run(call as never, deps)) as AsyncIterable<{ event: string; data: unknown }>);
    }
    const respond = async () => {
      const result = await op.run(call as never, deps);
      if (op.output.kind === 'none') return { status: m.status, body: null };
      if (op.output.kind === 'file') return { status: m.status, body: result };
      const body = restBodyOf(op.output, result);
      if (options.validateResponses && m.responseSchema) {
        const checked = m.responseSchema.safeParse(body);
        if (!checked.success) throw new Error(`The response of ${op.name} does not match its schema: ${checked.error.message}`);
      }
      return { status: m.status, body };
    };
    const key = takesIdempotencyKey(op) ? ctx.get('idempotency-key') : '';
    const { status, body, replayed } =
      key && hasTeam(caller)
        ? await idempotently(deps.db, caller, { key, fingerprint: fingerprintOf(ctx), leaseMs: deps.config.IDEMPOTENCY_LEASE }, respond)
        : { ...(await respond()), replayed: false };
    ctx.status = status;
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    if (op.output.kind === 'none') return;
    if (op.output.kind === 'file') return sendFile(ctx, body as FileBody);
    setJsonBody(ctx, body);
  } finally {
    await upload?.discard();
  }
}

/**
 * The operation's one input, assembled from the path, and the query (GET), the JSON body or the
 * form's text fields, and checked once. A failure names the part of the request it is in, as a
 * client reads it: body fields without the input's `body` wrapper.
 */
function inputOf(m: Mounted, ctx: Context, upload: SpooledUpload | undefined): unknown {
  const { op } = m;
  if (!op.input) return undefined;
  const params = ctx.params as Record<string, string>;
  let raw: Record<string, unknown>;
  if (m.rest === 'query') raw = { ...ctx.query, ...params };
  else if (m.rest === 'form') raw = { ...(op.multipart?.fields ?? lastValues)(upload?.fields ?? {}), ...params };
  else if (m.rest === 'body') {
    const body = (ctx.request as { body?: unknown }).body;
    if (op.body) raw = { [op.body]: body, ...params };
    else if (body === undefined) raw = { ...params };
    else if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const taken = m.pathKeys.filter((k) => k in body);
      if (taken.length) throw validationError(new z.ZodError(taken.map((k) => issue([k], 'is set by the path'))), 'request body');
      raw = { ...body, ...params };
    } else throw validationError(new z.ZodError([issue([], 'expected a JSON object')]), 'request body');
  } else raw = { ...params };
  const parsed = op.input.safeParse(raw);
  if (parsed.success) return parsed.data;
  const inPath = parsed.error.issues.filter((i) => m.pathKeys.includes(String(i.path[0])));
  if (inPath.length) throw validationError(new z.ZodError(inPath), 'path parameters');
  const where = m.rest === 'query' ? 'query parameters' : m.rest === 'form' ? 'form fields' : 'request body';
  const issues = op.body ? parsed.error.issues.map((i) => ({ ...i, path: i.path.slice(1) })) : parsed.error.issues;
  throw validationError(new z.ZodError(issues), where);
}

/** What makes a retry "the same request" for its Idempotency-Key: method, path and JSON body. */
const fingerprintOf = (ctx: Context) => requestFingerprint(ctx.method, ctx.path, (ctx.request as { body?: unknown }).body);
const issue = (path: string[], message: string): z.core.$ZodIssue => ({ code: 'custom', path, message, input: undefined });
const lastValues = (sent: Record<string, string[]>) => Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, v.at(-1)]));

function sendFile(ctx: Context, file: FileBody) {
  ctx.type = file.mimeType;
  ctx.set('Content-Disposition', attachmentDisposition(file.fileName));
  if (file.size !== undefined) ctx.length = file.size;
  ctx.body = file.body;
}
