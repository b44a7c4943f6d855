import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

/**
 * A list's `q=` reads a team's newest matches week by week through the index of migration 0081,
 * whose keys are `<team 8 hex>:<week>:<trigram>`. The first probe spans as many of the newest weeks
 * as should hold a page, judged from the team's recent rows per day and the rarest word's share of
 * the statistics' sample; each further probe takes the older weeks next to it, four times as many,
 * until the page is full or the team's first week is read. So a request reads about a page of
 * matches from a 10,000-row team or a 10,000,000-row one, and never another team's.
 */

const DAY_MS = 86_400_000;
/** Week 0 starts on Monday 1970-01-05, as in the index's expression. */
const WEEK_ZERO_MS = Date.UTC(1970, 0, 5);
/** The newest rows read to judge a team's rows per day; fewer than this is the whole team. */
const RECENT_ROWS = 1000;
/** Trigrams looked up at most: each more one is one more key per week probed. */
const MAX_TRIGRAMS = 3;
/**
 * Keys one probe looks up at most, each a descent of the index: a wide window, which only a sparse
 * team or a rare word reaches, gets fewer trigrams, and more than this many weeks take another probe.
 */
const MAX_KEYS = 512;
const GROWTH = 4;

export const weekOf = (date: string) => Math.floor((Date.parse(`${date}T00:00:00Z`) - WEEK_ZERO_MS) / (7 * DAY_MS));
export const weekStart = (week: number) => new Date(WEEK_ZERO_MS + week * 7 * DAY_MS).toISOString().slice(0, 10);
export const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** Weeks `from`..`to` (inclusive) of one team, and the trigrams every match holds in them. */
export interface WeekWindow {
  team: string;
  trigrams: string[];
  from: number;
  to: number;
}

/** The index's expression over a query's alias for `transactions` (migration 0081's function, columns in its order). */
const WEEK_TRIGRAMS = (alias: string) =>
  `transaction_week_trigrams(${alias}.team_id, ${alias}.date, ${alias}.name, ${alias}.description, ${alias}.counterparty_name, ${alias}.merchant_name)`;

/**
 * Keeps `q`'s rows to the window's weeks and trigrams: one array of keys per trigram, any week. The
 * keys hold the week, so a date range would add nothing but a second index for the planner to AND.
 */
export function whereInWeeks<Q extends Knex.QueryBuilder>(q: Q, window: WeekWindow, alias = 't'): Q {
  const tag = window.team.slice(0, 8);
  for (const trigram of window.trigrams) {
    const keys: string[] = [];
    for (let week = window.from; week <= window.to; week++) keys.push(`${tag}:${week}:${trigram}`);
    q.whereRaw(`${WEEK_TRIGRAMS(alias)} && ?::text[]`, [keys]);
  }
  return q;
}

export interface WeekPlan {
  /** Per word of the query, rarest first: the trigrams every text holding it holds. */
  trigrams: string[][];
  /** The team's first and last dates within the bounds. */
  first: string;
  last: string;
  /** The first day of the team's newest RECENT_ROWS rows (or of all, if it has fewer), and how many there are. */
  near: string;
  recent: number;
  /** Weeks the first probe spans. */
  span: number;
}

/**
 * One round trip: the trigrams of each word that any text containing the word holds (pg_trgm's
 * own, as the index has them: without the padded start and end, which a longer word in a row does
 * not have), the team's first and last dates within the bounds, and how densely its newest rows lie.
 * Null when the team has no rows within the bounds.
 */
export async function planWeeks(
  db: Db,
  teamId: string,
  words: string[],
  bounds: { from?: string; to?: string },
  /** The share of rows holding the rarest word, `words[0]`. */
  rarestShare: number,
  pageRows: number,
): Promise<WeekPlan | null> {
  const upper = bounds.to ? 'and date <= ?' : '';
  const lower = bounds.from ? 'and date >= ?' : '';
  const team = [teamId, bounds.to, bounds.from].filter((v) => v !== undefined);
  const { rows } = await db.raw<{
    rows: { first: string | null; last: string | null; near: string | null; recent: number; trigrams: string[][] }[];
  }>(
    `with newest as (select date from transactions where team_id = ? ${upper} ${lower} order by date desc limit ${RECENT_ROWS})
     select (select min(date) from transactions where team_id = ? ${upper} ${lower})::text as first,
            (select max(date) from newest)::text as last, (select min(date) from newest)::text as near,
            (select count(*) from newest)::int as recent,
            (select json_agg(array(select t from unnest(show_trgm(w.word)) t where position(' ' in t) = 0
                                   except select unnest(show_trgm(left(w.word, 2)))
                                   except select unnest(show_trgm(right(w.word, 2)))) order by w.n)
               from unnest(?::text[]) with ordinality w(word, n)) as trigrams`,
    [...team, ...team, words],
  );
  const row = rows[0];
  if (!row.first || !row.last || !row.near) return null;
  const weeks = weekOf(row.last) - weekOf(row.first) + 1;
  // Fewer recent rows than asked for are the whole team: one probe reads it. More, and all of one
  // day, are a team too dense to tell how dense: a week at a time.
  let span = weeks;
  if (row.recent >= RECENT_ROWS) {
    const days = (Date.parse(row.last) - Date.parse(row.near)) / DAY_MS;
    const perWeek = days ? (row.recent / days) * 7 * rarestShare : Infinity;
    span = Math.min(weeks, Math.max(1, Math.ceil((3 * pageRows) / perWeek)));
  }
  return { trigrams: row.trigrams.map((t) => t.sort()), first: row.first, last: row.last, near: row.near, recent: row.recent, span };
}

/**
 * Up to `n` trigrams, taken from each word in turn, rarest first: the rarest word's narrow most,
 * and one of each other word's keeps out the rows that hold the rarest word but not the others.
 */
export function someTrigrams(byWord: string[][], n: number): string[] {
  const picked = new Set<string>();
  for (let i = 0; picked.size < n && byWord.some((w) => i < w.length); i++) {
    for (const word of byWord) if (i < word.length && picked.size < n) picked.add(word[i]);
  }
  return [...picked];
}

/**
 * Probes `plan`'s weeks newest first (from `last`), each probe the older weeks next to the last,
 * GROWTH times as many (up to MAX_KEYS), until `pageRows` rows are found or the first week is read.
 * `probe` returns at most the rows asked for, newest first; windows do not overlap, so the pages
 * join in order.
 */
export async function newestInWeeks<T>(
  team: string,
  plan: Pick<WeekPlan, 'trigrams' | 'first' | 'last' | 'span'>,
  pageRows: number,
  probe: (window: WeekWindow, rows: number) => Promise<T[]>,
): Promise<T[]> {
  const found: T[] = [];
  const first = weekOf(plan.first);
  let to = weekOf(plan.last);
  let span = plan.span;
  for (;;) {
    const from = Math.max(first, to - Math.min(span, MAX_KEYS) + 1);
    const trigrams = someTrigrams(plan.trigrams, Math.max(1, Math.min(MAX_TRIGRAMS, Math.floor(MAX_KEYS / (to - from + 1)))));
    found.push(...(await probe({ team, trigrams, from, to }, pageRows - found.length)));
    if (found.length >= pageRows || from === first) return found;
    to = from - 1;
    span *= GROWTH;
  }
}
