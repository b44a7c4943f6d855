import type { Readable } from 'node:stream';
import { z } from 'zod';
import { pageOf, type Page } from '../../shared/domain/common/page';

/**
 * How a route answers. Services return data; the adapter wraps it: `one` as `{data}`, `all` (a short,
 * unpaginated list) as `{data: [...]}`; `page` and `list` pass the service's list object through
 * (`{data, meta}`); `none` is 204; `file` streams bytes with their own content type.
 */
export type Reply =
  | OneReply<z.ZodType>
  | AllReply<z.ZodType>
  | PageReply<z.ZodType>
  | ListReply<z.ZodType, z.ZodType>
  | NoneReply
  | FileReply
  | EventsReply<z.ZodType<{ event: string; data: unknown }>>;

export interface OneReply<S extends z.ZodType> {
  kind: 'one';
  item: S;
}
export interface AllReply<S extends z.ZodType> {
  kind: 'all';
  item: S;
}
export interface PageReply<S extends z.ZodType> {
  kind: 'page';
  item: S;
}
/** A list whose `meta` carries something other than a cursor (totals of an unpaginated range). */
export interface ListReply<S extends z.ZodType, M extends z.ZodType> {
  kind: 'list';
  item: S;
  meta: M;
}
export interface NoneReply {
  kind: 'none';
}
export interface FileReply {
  kind: 'file';
  description: string;
}

/** Server-sent events (`text/event-stream`), each `{event, data}` of the schema, as the handler's iterable yields them. */
export interface EventsReply<S extends z.ZodType<{ event: string; data: unknown }>> {
  kind: 'events';
  event: S;
  description: string;
}

export const one = <S extends z.ZodType>(item: S): OneReply<S> => ({ kind: 'one', item });
export const all = <S extends z.ZodType>(item: S): AllReply<S> => ({ kind: 'all', item });
export const page = <S extends z.ZodType>(item: S): PageReply<S> => ({ kind: 'page', item });
export const list = <S extends z.ZodType, M extends z.ZodType>(item: S, meta: M): ListReply<S, M> => ({ kind: 'list', item, meta });
export const none: NoneReply = { kind: 'none' };
export const file = (description: string): FileReply => ({ kind: 'file', description });
export const events = <S extends z.ZodType<{ event: string; data: unknown }>>(event: S, description: string): EventsReply<S> => ({
  kind: 'events',
  event,
  description,
});

/** A file as a route hands it to the adapter: streamed when it can be, with what the headers need. */
export interface FileBody {
  body: Readable | Buffer;
  mimeType: string;
  fileName: string;
  size?: number;
}

/** What a handler's promise must resolve to for a reply with a body: checked at compile time against the route's schema. */
export type ResultOf<R extends Reply> =
  R extends OneReply<infer S>
    ? z.input<S>
    : R extends AllReply<infer S>
      ? z.input<S>[]
      : R extends PageReply<infer S>
        ? Page<z.input<S>>
        : R extends ListReply<infer S, infer M>
          ? { data: z.input<S>[]; meta: z.input<M> }
          : R extends FileReply
            ? FileBody
            : R extends EventsReply<infer S>
              ? AsyncIterable<z.input<S>>
              : never;

/**
 * What a handler returns. A `none` reply sends no body, so its handler may hand back any
 * `Promise<void>` service as it is; every other reply is held to its `ResultOf`.
 */
export type HandlerResult<R extends Reply> = R extends NoneReply ? Promise<void> : Promise<ResultOf<R>>;

/** The JSON body a reply sends, as a schema: for the OpenAPI document and for checking responses. */
export function bodySchema(reply: Reply): z.ZodType | undefined {
  switch (reply.kind) {
    case 'one':
      return z.object({ data: reply.item });
    case 'all':
      return z.object({ data: z.array(reply.item) });
    case 'page':
      return pageOf(reply.item);
    case 'list':
      return z.object({ data: z.array(reply.item), meta: reply.meta });
    case 'none':
    case 'file':
    case 'events':
      return undefined;
  }
}

/** The JSON body for a handler's result. */
export function bodyOf(reply: Reply, result: unknown): unknown {
  return reply.kind === 'one' || reply.kind === 'all' ? { data: result } : result;
}
