import type { Context } from 'koa';
import { z } from 'zod';
import type { Caller, Principal } from '../../shared/domain/auth/principal';
import type { ResourceScope } from '../../shared/domain/auth/scopes';
import type { Logger } from '../../shared/logger';
import type { ApiDeps } from '../deps';
import type { SpooledFile, SpoolLimits } from '../http/multipart';
import type { AppState } from '../http/state';
import type { NoneOutput, Output, ResultOf } from './output';

// A declaration's whole vocabulary comes from this module: the outputs too.
export { all, events, file, list, none, one, page } from './output';

export type Kind = 'query' | 'mutation';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** An operation's REST door: method and koa-style path, e.g. `PATCH /transactions/:id`; each `:name` is a field of the input. */
export type Door = `${Method} /${string}`;

/** What both doors know of the request an operation serves. */
export type RequestInfo = {
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  /** The `Last-Event-ID` an EventSource sends when it reconnects to a stream: where to resume. */
  lastEventId: string | undefined;
  log: Logger;
};

/**
 * The request as either door hands it to a call; the address and the logger are worked out when read
 * (most calls need neither). A class rather than an object literal with getters: V8 gives each such
 * literal's getters (closures over the request) a hidden class of their own in the old generation, so
 * everything the request reached (its rows, its response) stayed alive through every young-generation
 * collection and was promoted, to be freed only by a full one.
 */
class RequestFacts implements RequestInfo {
  readonly requestId: string;
  readonly userAgent: string | undefined;

  constructor(private readonly ctx: Context & { state: AppState }) {
    this.requestId = ctx.state.requestId;
    this.userAgent = ctx.get('user-agent') || undefined;
  }

  get ip(): string {
    return this.ctx.ip;
  }

  get lastEventId(): string | undefined {
    return this.ctx.get('last-event-id') || undefined;
  }

  get log(): Logger {
    return this.ctx.state.log;
  }
}

export const requestInfoOf = (ctx: Context & { state: AppState }): RequestInfo => new RequestFacts(ctx);

interface CallBase<I extends z.ZodType> {
  input: z.output<I>;
  request: RequestInfo;
  /** The files of a multipart REST request, spooled to disk and removed after the call; empty for every other operation. */
  files: readonly SpooledFile[];
}
/** A call acting in a team: every service it makes is scoped to `principal.teamId`. */
export type TeamCall<I extends z.ZodType> = CallBase<I> & { principal: Principal };
/** A call on the caller themselves (`forUser`), who may belong to no team yet. */
export type UserCall<I extends z.ZodType> = CallBase<I> & { caller: Caller };
export type CallOf<I extends z.ZodType, U extends boolean> = U extends true ? UserCall<I> : TeamCall<I>;

/** A `none` output sends no body, so its `run` may hand back any service promise as it is. */
type RunResult<O extends Output> = O extends NoneOutput ? Promise<unknown> : Promise<ResultOf<O>>;

/** A `multipart/form-data` body the REST door streams to disk before the call; tRPC carries no multipart. */
export interface Multipart {
  /** The form's parts for the OpenAPI document: files as `z.string().meta({ format: 'binary' })` (or arrays of them), text as strings. */
  form: z.ZodObject;
  description: string;
  limits: (config: ApiDeps['config']) => SpoolLimits;
  /** The text fields as the input schema reads them; by default the last value sent for each. */
  fields?: (sent: Record<string, string[]>) => Record<string, unknown>;
}

export interface Spec<
  I extends z.ZodType,
  O extends Output,
  U extends boolean,
  T extends z.ZodType,
  F extends readonly string[],
  X extends string | undefined,
> {
  summary: string;
  description?: string;
  /** One object schema for both doors: REST takes the path's `:fields` from the path, the rest from the query (GET) or the body. */
  input?: I;
  output: O;
  /** An operation on the caller themselves (their profile, invitations, teams): it also serves a session user in no team yet. */
  forUser?: U;
  /** For a REST `one` answer: 201 for a creation, 202 for work that goes on in the background. */
  status?: 201 | 202;
  /** The input field that is the whole REST body (tRPC's `{id, data}` is `PATCH /x/:id` with `data` as the body). */
  body?: keyof z.input<I> & string;
  multipart?: Multipart;
  /** A credential the REST door takes besides a bearer token (a signed upload URL); null when the request has none. */
  credential?: (ctx: Context, deps: ApiDeps) => Promise<Caller | null>;
  /** Why this operation has no tRPC door (a file download, a multipart upload, a stream). */
  restOnly?: X;
  /** Where tRPC answers otherwise than REST: the whole answer for what REST streams. */
  trpc?: { output: T; run: (call: CallOf<I, U>, deps: ApiDeps) => Promise<z.input<T>> };
  /** Earlier tRPC names of this operation, still served as deprecated aliases for one release. */
  formerly?: F;
  /** Why a caller should use something else; shown in the reference. */
  deprecated?: string;
  /** Error statuses it answers besides every operation's (a GET's 409), for the reference; the description says when. */
  errors?: readonly number[];
  /** Request headers it reads besides the credential (an SSE's `Last-Event-ID`), for the reference. */
  headers?: z.ZodObject;
  run: (call: CallOf<I, U>, deps: ApiDeps) => RunResult<O>;
}

export interface Operation<
  N extends string = string,
  K extends Kind = Kind,
  I extends z.ZodType = z.ZodType,
  O extends Output = Output,
  U extends boolean = boolean,
  T extends z.ZodType = z.ZodType,
  F extends readonly string[] = readonly string[],
  X extends string | undefined = string | undefined,
> extends Spec<I, O, U, T, F, X> {
  name: N;
  kind: K;
  /** Every scope the caller needs; at least one. */
  scopes: readonly [ResourceScope, ...ResourceScope[]];
  rest?: Door;
  /** Why this operation has no REST door. */
  trpcOnly?: string;
  /** False for a `restOnly` operation: tRPC does not serve it. */
  trpcDoor: X extends string ? false : true;
}

/** Any declared operation, as the doors, the reference and the tests walk them (each door calls `run` with the call it built). */
export type AnyOperation = Omit<Operation, 'run' | 'trpc' | 'body'> & {
  body?: string;
  run: (call: never, deps: ApiDeps) => Promise<unknown>;
  trpc?: { output: z.ZodType; run: (call: never, deps: ApiDeps) => Promise<unknown> };
};

/** An operation served over tRPC alone, and why. */
export interface TrpcOnly {
  trpcOnly: string;
}
export const trpcOnly = (why: string): TrpcOnly => ({ trpcOnly: why });

type Declare<K extends Kind> = <
  const N extends `${string}.${string}`,
  I extends z.ZodType = z.ZodUndefined,
  O extends Output = Output,
  U extends boolean = false,
  T extends z.ZodType = z.ZodNever,
  const F extends readonly string[] = [],
  const X extends string | undefined = undefined,
>(
  name: N,
  door: Door | TrpcOnly,
  scopes: readonly [ResourceScope, ...ResourceScope[]],
  spec: Spec<I, O, U, T, F, X>,
) => Operation<N, K, I, O, U, T, F, X>;

const declare =
  <K extends Kind>(kind: K): Declare<K> =>
  (name, door, scopes, spec) => {
    const operation = { ...spec, ...(typeof door === 'string' ? { rest: door } : door), scopes, name, kind, trpcDoor: !spec.restOnly };
    checkDoors(operation);
    return operation as never;
  };

/**
 * An operation that reads: tRPC query, REST GET. Declared as `query(name, door, scopes, spec)`: its
 * tRPC name (`transactions.getById`), its REST door (`'GET /transactions/:id'`, or `trpcOnly(why)`),
 * every scope a caller needs, and the rest.
 */
export const query = declare('query');
/** An operation that changes something (or costs something): tRPC mutation, REST POST, PUT, PATCH or DELETE. */
export const mutation = declare('mutation');

/** A mutation whose answer can be kept and replayed for an Idempotency-Key: not an upload, a file or a stream. */
export const takesIdempotencyKey = (op: AnyOperation): boolean =>
  op.kind === 'mutation' && !op.multipart && op.output.kind !== 'file' && op.output.kind !== 'events';

/** The fields of an object schema, looking through the wrappers an input may carry. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (!schema) return {};
  if (schema instanceof z.ZodObject) return schema.shape;
  if (schema instanceof z.ZodPipe) return shapeOf(schema.in as z.ZodType);
  if (schema instanceof z.ZodPrefault || schema instanceof z.ZodDefault || schema instanceof z.ZodOptional)
    return shapeOf(schema.unwrap() as z.ZodType);
  // A union of objects (one body per provider): the fields of every option.
  if (schema instanceof z.ZodUnion) return Object.assign({}, ...(schema.options as z.ZodType[]).map(shapeOf)) as Record<string, z.ZodType>;
  throw new Error(`an operation's input must be an object schema, not ${schema.def.type}`);
}

export const doorOf = (door: Door) => {
  const [method, path] = door.split(' ') as [Method, string];
  return { method, path, pathKeys: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]) };
};

/** Refuses, when the module loads, a declaration whose doors do not fit together. */
function checkDoors(op: AnyOperation): void {
  const fail = (why: string) => {
    throw new Error(`operation ${op.name}: ${why}`);
  };
  if (!op.rest && !op.trpcOnly) fail('give it a REST door, or say with `trpcOnly` why it has none');
  if (op.rest && op.trpcOnly) fail('`trpcOnly` with a REST door');
  if (op.restOnly && !op.rest) fail('`restOnly` without a REST door');
  const streamed = op.output.kind === 'file' || op.output.kind === 'events' || op.multipart;
  if (streamed && !op.restOnly && !op.trpc)
    fail('a file, stream or upload has no tRPC form: say so with `restOnly`, or give `trpc` its answer');
  if (!op.rest) return;
  const { method, pathKeys } = doorOf(op.rest);
  if ((method === 'GET') !== (op.kind === 'query')) fail(`a ${op.kind} cannot be ${method}`);
  const shape = shapeOf(op.input);
  const missing = pathKeys.filter((k) => !(k in shape));
  if (missing.length) fail(`path parameters ${missing.join(', ')} are not fields of the input`);
  if (op.body && !(op.body in shape)) fail(`the body field ${op.body} is not a field of the input`);
  if (op.body && Object.keys(shape).some((k) => k !== op.body && !pathKeys.includes(k)))
    fail('with `body`, every other field of the input must be in the path');
  if (op.body && method === 'GET') fail('a GET has no body');
}
