import type { Knex } from 'knex';
import { z } from 'zod';
import { badRequest } from '../../errors';
import { encodeCursor, fitsShape, invalidCursor, readCursor, type CursorPart, type CursorShape } from './cursor';
import type { Page } from './page';

export interface SortTerm<F extends string> {
  readonly field: F;
  readonly descending: boolean;
}

/** A list's order as a client asked for it (`sort=-date,amount`), checked against the list's fields. */
export interface Sort<F extends string = string> {
  readonly terms: readonly SortTerm<F>[];
  /** The order written out (`-date,amount`): what a cursor made for it carries, and what the client named. */
  readonly text: string;
  /** Whether this is the list's own order, which some lists serve on a path of their own. */
  readonly isDefault: boolean;
}

const codeList = (fields: readonly string[]) =>
  fields.length > 1
    ? `${fields
        .slice(0, -1)
        .map((f) => `\`${f}\``)
        .join(', ')} or \`${fields.at(-1)}\``
    : `\`${fields[0]}\``;

function parseSort<F extends string>(text: string, fields: readonly F[], defaultText: string): Sort<F> | string[] {
  const problems: string[] = [];
  const terms: SortTerm<F>[] = [];
  const fieldsHint = `sort by ${codeList(fields)}, each ascending or with a leading \`-\` for descending (\`-${fields[0]}\`)`;
  for (const raw of text.split(',')) {
    const term = raw.trim();
    const descending = term.startsWith('-');
    const field = descending ? term.slice(1) : term;
    if (!field) {
      problems.push(`an empty field in \`${text}\`: ${fieldsHint}`);
    } else if (!(fields as readonly string[]).includes(field)) {
      problems.push(`unknown sort field \`${field}\`: ${fieldsHint}`);
    } else if (terms.some((t) => t.field === field)) {
      problems.push(`\`${field}\` is named twice: name each field at most once`);
    } else {
      terms.push({ field: field as F, descending });
    }
  }
  if (problems.length) return problems;
  const written = terms.map((t) => `${t.descending ? '-' : ''}${t.field}`).join(',');
  return { terms, text: written, isDefault: written === defaultText };
}

/**
 * The `sort` parameter of a list: comma-separated `fields`, each ascending or with a leading `-` for
 * descending, `defaultText` when absent. Every list declares its own with this, so each parses,
 * refuses (an unknown field names the allowed ones; a field named twice) and documents alike. The
 * same text is the tRPC input.
 */
export function sortParam<const F extends string>(fields: readonly [F, ...F[]], defaultText: string) {
  const fallback = parseSort(defaultText, fields, defaultText);
  if (Array.isArray(fallback))
    throw new Error(`sortParam: the default sort \`${defaultText}\` is not of its fields: ${fallback.join('; ')}`);
  return z
    .string()
    .max(200)
    .optional()
    .transform((text, ctx): Sort<F> => {
      if (!text?.trim()) return fallback;
      const parsed = parseSort(text, fields, defaultText);
      if (!Array.isArray(parsed)) return parsed;
      for (const message of parsed) ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .meta({
      description: [
        `Order of the list: comma-separated fields, each ascending or with a leading \`-\` for descending. Fields: ${codeList(fields)}.`,
        `Default: \`${defaultText}\`. Rows that tie are ordered by id (in the direction of the last field), so paging never skips or repeats one.`,
        'A cursor continues only the order it was made for: pass the same `sort` with it.',
      ].join(' '),
      example: fields.length > 1 ? `-${fields[1]},${fields[0]}` : `-${fields[0]}`,
      default: defaultText,
      // For generated clients: the allowed fields as a machine-readable rule (the server's own check is the transform's).
      pattern: `^-?(${fields.join('|')})(,-?(${fields.join('|')}))*$`,
    });
}

/**
 * Where a sort field lives in a list's SQL: a qualified column or an expression of one (the same an
 * index holds), the kind of its cursor part, and whether it may be null.
 */
export interface SortColumn {
  readonly sql: string;
  readonly part: CursorPart;
  readonly nullable?: boolean;
}

/** A list's sortable fields as SQL, and its id column: the tie-breaker that makes every order total. */
export interface SortKeys<F extends string> {
  readonly fields: Readonly<Record<F, SortColumn>>;
  readonly id: string;
}

interface KeyTerm {
  readonly sql: string;
  readonly cast: string;
  readonly descending: boolean;
  readonly nullable: boolean;
}

const CASTS: Record<CursorPart, string> = {
  date: '::date',
  timestamp: '::timestamptz',
  uuid: '::uuid',
  integer: '::bigint',
  number: '::numeric',
  text: '',
};

/** The order's columns, the id last in the direction of the last field (a single-field order then walks its index one way). */
function keyTerms<F extends string>(sort: Sort<F>, keys: SortKeys<F>): KeyTerm[] {
  const terms = sort.terms.map((t) => {
    const c = keys.fields[t.field];
    return { sql: c.sql, cast: CASTS[c.part], descending: t.descending, nullable: c.nullable === true };
  });
  return [...terms, { sql: keys.id, cast: '::uuid', descending: sort.terms.at(-1)?.descending ?? false, nullable: false }];
}

/**
 * The ORDER BY of `sort`. Nulls keep PostgreSQL's place for them (after every value ascending, before
 * descending), which is where a plain (team_id, column, id) index holds them in either direction.
 */
export function sortOrder<F extends string>(sort: Sort<F>, keys: SortKeys<F>): string {
  return keyTerms(sort, keys)
    .map((t) => `${t.sql} ${t.descending ? 'desc' : 'asc'}`)
    .join(', ');
}

/** The row's place in the order, each part as PostgreSQL prints it (a JS number or Date would round it): the cursor's key. */
export function sortKeySql<F extends string>(sort: Sort<F>, keys: SortKeys<F>): string {
  return `json_build_array(${keyTerms(sort, keys)
    .map((t) => `${t.sql}::text`)
    .join(', ')})`;
}

/**
 * The condition for the rows after `key` (a cursor's) in the order. When every column goes one way
 * and none is null, a row comparison, which the (team_id, …, id) index seeks to directly; otherwise
 * field by field, with the first field's bound beside it so the index still narrows the range.
 */
export function afterKey<F extends string>(
  sort: Sort<F>,
  keys: SortKeys<F>,
  key: readonly (string | null)[],
): { sql: string; bindings: Knex.Value[] } {
  const terms = keyTerms(sort, keys);
  if (terms.every((t) => !t.nullable && t.descending === terms[0].descending)) {
    return {
      sql: `(${terms.map((t) => t.sql).join(', ')}) ${terms[0].descending ? '<' : '>'} (${terms.map((t) => `?${t.cast}`).join(', ')})`,
      bindings: [...key] as Knex.Value[],
    };
  }
  const bindings: Knex.Value[] = [];
  const bind = (t: KeyTerm, value: string) => {
    bindings.push(value);
    return `?${t.cast}`;
  };
  const [first] = terms;
  const bound =
    key[0] === null
      ? first.descending
        ? null
        : `${first.sql} is null`
      : first.nullable && !first.descending
        ? null
        : `${first.sql} ${first.descending ? '<=' : '>='} ${bind(first, key[0])}`;
  // After the key: later at the first column, or equal there and after the key on the rest.
  const after = (i: number): string => {
    const t = terms[i];
    const value = key[i];
    let later: string | null;
    if (value === null) later = t.descending ? `${t.sql} is not null` : null;
    else if (t.descending) later = `${t.sql} < ${bind(t, value)}`;
    else later = t.nullable ? `(${t.sql} > ${bind(t, value)} or ${t.sql} is null)` : `${t.sql} > ${bind(t, value)}`;
    if (i === terms.length - 1) return later ?? 'false';
    const equal = value === null ? `${t.sql} is null` : `${t.sql} = ${bind(t, value)}`;
    const rest = `(${equal} and ${after(i + 1)})`;
    return later ? `(${later} or ${rest})` : rest;
  };
  const condition = after(0);
  return { sql: bound ? `${bound} and ${condition}` : condition, bindings };
}

/** The shape of a cursor made for `sort`: one part per field, then the id. */
const shapeOf = <F extends string>(sort: Sort<F>, keys: SortKeys<F>): CursorShape[] => [
  ...sort.terms.map((t): CursorShape => {
    const c = keys.fields[t.field];
    return c.nullable ? { part: c.part, nullable: true } : c.part;
  }),
  'uuid',
];

/** A cursor for the rows after `key` in `sort`: it carries the order it was made for. */
export const encodeSortedCursor = (sort: Sort, key: readonly (string | null)[]) => encodeCursor([sort.text, ...key]);

/**
 * The key of a cursor made for `sort`. A cursor made for another order is a 400 that says so: its key
 * means nothing in this one, and read as if it did it would skip or repeat rows.
 */
export function decodeSortedCursor<F extends string>(cursor: string, sort: Sort<F>, keys: SortKeys<F>): (string | null)[] {
  const key = readCursor(cursor);
  const madeFor = key?.[0];
  // An order of this list's fields tells a cursor made for another order from one we never issued.
  const isOrder = (text: string) => text.split(',').every((t) => Object.hasOwn(keys.fields, t.replace(/^-/, '')));
  if (typeof madeFor === 'string' && madeFor !== sort.text && isOrder(madeFor)) {
    throw badRequest(
      `This cursor continues the list sorted by \`${madeFor}\`, not \`${sort.text}\`: pass \`sort=${madeFor}\` with it, or start again without a cursor`,
      [{ field: 'cursor', message: `made for sort=${madeFor}` }],
    );
  }
  const rest = key?.slice(1);
  if (madeFor === sort.text && rest && fitsShape(rest, shapeOf(sort, keys))) return rest as (string | null)[];
  throw invalidCursor();
}

/** What a row of a sorted list carries beside its own columns: its place in the order (sortKeySql). */
export interface SortedRow {
  cursorKey: (string | null)[];
}

/**
 * A list in the order `query.sort`, resumed from a cursor made for that order. Adds the order, the
 * limit, the cursor's condition and the row's key (`cursor_key`) to `q`; `toDto` sees the row without it.
 */
export async function sortedPage<F extends string, Row, T, TRecord extends object = object>(
  db: Knex,
  q: Knex.QueryBuilder<TRecord, Row[]>,
  keys: SortKeys<F>,
  query: { cursor?: string; pageSize: number; sort: Sort<F> },
  toDto: (row: Row) => T,
): Promise<Page<T>> {
  const { sort } = query;
  q.select(db.raw(`${sortKeySql(sort, keys)} as cursor_key`))
    .orderByRaw(sortOrder(sort, keys))
    .limit(query.pageSize + 1);
  if (query.cursor) {
    const { sql, bindings } = afterKey(sort, keys, decodeSortedCursor(query.cursor, sort, keys));
    q.whereRaw(sql, bindings);
  }
  // As in newestFirstPage: for a concrete row type the builder resolves to `Row[]`.
  const rows = (await q) as (Row & SortedRow)[];
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page.map(({ cursorKey: _key, ...row }) => toDto(row as Row)),
    meta: { cursor: hasNextPage && last ? encodeSortedCursor(sort, last.cursorKey) : null, hasNextPage },
  };
}
