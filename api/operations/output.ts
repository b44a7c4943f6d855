import type { Readable } from 'node:stream';
import { z } from 'zod';
import { pageOf, type Page } from '../../shared/domain/common/page';

/**
 * What an operation answers, and so how each door sends it. The service returns data; the doors wrap it:
 * - `one`: REST `{data: item}`, tRPC the item;
 * - `all`, a short unpaginated list: REST `{data: [...]}`, tRPC the array;
 * - `page` and `list`: the service's list object (`{data, meta}`) through both doors as it is;
 * - `none`: REST 204, tRPC nothing;
 * - `file` streams bytes with their own content type, `events` streams server-sent events: REST only,
 *   since tRPC answers JSON (such an operation says so with `restOnly`, or gives tRPC an answer of its own).
 */
export type Output =
  | OneOutput<z.ZodType>
  | AllOutput<z.ZodType>
  | PageOutput<z.ZodType>
  | ListOutput<z.ZodType, z.ZodType>
  | NoneOutput
  | FileOutput
  | EventsOutput<z.ZodType<{ event: string; data: unknown }>>;

export type OneOutput<S extends z.ZodType> = { kind: 'one'; item: S };
export type AllOutput<S extends z.ZodType> = { kind: 'all'; item: S };
export type PageOutput<S extends z.ZodType> = { kind: 'page'; item: S };
/** A list whose `meta` carries something other than a cursor (totals of an unpaginated range). */
export type ListOutput<S extends z.ZodType, M extends z.ZodType> = { kind: 'list'; item: S; meta: M };
export type NoneOutput = { kind: 'none' };
export type FileOutput = { kind: 'file'; description: string };
/** Server-sent events (`text/event-stream`), each `{event, data}` of the schema, as the operation's iterable yields them. */
export type EventsOutput<S extends z.ZodType<{ event: string; data: unknown }>> = { kind: 'events'; event: S; description: string };

export const one = <S extends z.ZodType>(item: S): OneOutput<S> => ({ kind: 'one', item });
export const all = <S extends z.ZodType>(item: S): AllOutput<S> => ({ kind: 'all', item });
export const page = <S extends z.ZodType>(item: S): PageOutput<S> => ({ kind: 'page', item });
export const list = <S extends z.ZodType, M extends z.ZodType>(item: S, meta: M): ListOutput<S, M> => ({ kind: 'list', item, meta });
export const none: NoneOutput = { kind: 'none' };
export const file = (description: string): FileOutput => ({ kind: 'file', description });
export const events = <S extends z.ZodType<{ event: string; data: unknown }>>(event: S, description: string): EventsOutput<S> => ({
  kind: 'events',
  event,
  description,
});

/** A file as an operation hands it to the REST door: streamed when it can be, with what the headers need. */
export interface FileBody {
  body: Readable | Buffer;
  mimeType: string;
  fileName: string;
  size?: number;
}

/** A JSON output's value, built from its schemas' input (what `run` may hand back) or output (what a client receives) side. */
type Shaped<O extends Output, Side extends 'input' | 'output'> =
  O extends OneOutput<infer S>
    ? Of<S, Side>
    : O extends AllOutput<infer S>
      ? Of<S, Side>[]
      : O extends PageOutput<infer S>
        ? Page<Of<S, Side>>
        : O extends ListOutput<infer S, infer M>
          ? { data: Of<S, Side>[]; meta: Of<M, Side> }
          : undefined;
type Of<S extends z.ZodType, Side extends 'input' | 'output'> = Side extends 'input' ? z.input<S> : z.output<S>;

/** What an operation's `run` resolves to: checked at compile time against its output's schema. */
export type ResultOf<O extends Output> = O extends FileOutput
  ? FileBody
  : O extends EventsOutput<infer S>
    ? AsyncIterable<z.input<S>>
    : Shaped<O, 'input'>;

/** What a tRPC client receives for the output (the doors' shared value, unwrapped). */
export type ValueOf<O extends Output> = Shaped<O, 'output'>;

/** The schema of the value itself: what tRPC returns, and what REST wraps. Undefined for outputs that are not JSON. */
export function valueSchema(output: Output): z.ZodType | undefined {
  switch (output.kind) {
    case 'one':
      return output.item;
    case 'all':
      return z.array(output.item);
    case 'page':
      return pageOf(output.item);
    case 'list':
      return z.object({ data: z.array(output.item), meta: output.meta });
    case 'none':
      return z.void();
    case 'file':
    case 'events':
      return undefined;
  }
}

/** The JSON body REST sends, as a schema: for the OpenAPI document and for checking responses. */
export function restBodySchema(output: Output): z.ZodType | undefined {
  if (output.kind === 'one' || output.kind === 'all') return z.object({ data: valueSchema(output) as z.ZodType });
  return output.kind === 'page' || output.kind === 'list' ? valueSchema(output) : undefined;
}

/** The JSON body REST sends for a result. */
export const restBodyOf = (output: Output, result: unknown): unknown =>
  output.kind === 'one' || output.kind === 'all' ? { data: result } : result;
