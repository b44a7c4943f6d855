import type { Db } from '../../db/knex';

/**
 * What a list's `q=` is judged by before any index is asked: its words, and how rare each is, from
 * PostgreSQL's own statistics on the indexed text (the ~100 values ANALYZE keeps, the planner's
 * sample for the same question). An index needs every trigram of what it is given, and a trigram
 * most rows hold costs a posting list as long as the rows it covers: for "merchant 417", where
 * "merchant" is in every row, reading "merchant"'s keys costs far more than reading "417"'s and
 * narrows nothing. So the rarest word is what is looked up (week-probe.ts for the list; 0080's index
 * for the bulk edit); the whole text is still checked on every row found.
 */

/** The indexed text over a query's alias for `transactions` (migration 0080's function, with its columns in its order). */
export const transactionText = (alias: string) =>
  `transaction_text(${alias}.name, ${alias}.description, ${alias}.counterparty_name, ${alias}.merchant_name)`;

/** A word the index can look up: three letters or digits in a row hold at least one trigram. */
const WORD = /[\p{L}\p{N}]{3,}/gu;

/** How long a process trusts its sample before reading the statistics again. */
const SAMPLE_TTL_MS = 10 * 60_000;

export interface TextSample {
  /** Lower-cased sampled texts, each with the share of rows it stands for. */
  values: { text: string; share: number }[];
}

/** A word of a `q=` and the share of sampled texts that hold it. */
export interface RankedWord {
  word: string;
  share: number;
}

/**
 * The words of `q` an index can look up, rarest first in the sample, the longest first among equals
 * (more trigrams, fewer rows). Empty when `q` has no word of three letters or digits.
 */
export function wordsByRarity(q: string, sample: TextSample | null): RankedWord[] {
  const words = [...new Set(q.toLowerCase().match(WORD) ?? [])];
  return words
    .map((word) => ({ word, share: sampledShare(word, sample) }))
    .sort((a, b) => a.share - b.share || b.word.length - a.word.length);
}

/** The word of `q` to narrow by: its rarest. Null when there is nothing the index can narrow. */
export const narrowingWord = (q: string, sample: TextSample | null): string | null => wordsByRarity(q, sample)[0]?.word ?? null;

/** A word too short for a trigram inside it, with the separator before it (" 42" of "Merchant 42"). */
const SHORT_WORD_START = /[^\p{L}\p{N}][\p{L}\p{N}]{1,2}(?![\p{L}\p{N}])/gu;

/**
 * The part of `q` to narrow by when every match is wanted (a sum over them), not a page: its rarest
 * word, or a word too short to hold a trigram with the separator before it, which pg_trgm reads as
 * the start of a word. `ilike '% 42%'` looks up the keys of words beginning "42", a few rows in a
 * hundred, where "merchant" beside it is in every row and narrows nothing. Only for `ilike`: a
 * word's own trigrams (week-probe.ts) would also assume it ends there. Null as narrowingWord.
 */
export function narrowingPiece(q: string, sample: TextSample | null): string | null {
  const lower = q.toLowerCase();
  const pieces = [...new Set([...(lower.match(WORD) ?? []), ...(lower.match(SHORT_WORD_START) ?? [])])];
  const ranked = pieces
    .map((piece) => ({ piece, share: sampledShare(piece, sample) }))
    .sort((a, b) => a.share - b.share || b.piece.length - a.piece.length);
  return ranked[0]?.piece ?? null;
}

/** The share of sampled texts that hold `text` (lower-cased) whole. */
export const sampledShare = (text: string, sample: TextSample | null) =>
  (sample?.values ?? []).reduce((sum, v) => (v.text.includes(text) ? sum + v.share : sum), 0);

/**
 * The share of rows whose text holds `word`, as the sample tells. A word no sampled text holds is
 * rarer than one value in the sample: it is given half of one. Without statistics, one in a hundred.
 * `sampled` is the word's sampledShare when the caller has it already.
 */
export function wordShare(word: string, sample: TextSample | null, sampled = sampledShare(word.toLowerCase(), sample)): number {
  if (!sample?.values.length) return 0.01;
  return sampled || 0.5 / sample.values.length;
}

interface Cached {
  at: number;
  sample: Promise<TextSample | null>;
}
const samples = new WeakMap<Db, Cached>();

/**
 * The statistics ANALYZE keeps on the indexed text: its most common values with their frequencies,
 * and the histogram's bounds standing for the rest in equal shares. Read once per process and
 * database every SAMPLE_TTL_MS; null before the first ANALYZE or if the read fails (the longest
 * word is then given to the index, which is correct, only slower when that word is common).
 */
export function textSample(db: Db): Promise<TextSample | null> {
  const cached = samples.get(db);
  if (cached && Date.now() - cached.at < SAMPLE_TTL_MS) return cached.sample;
  const sample = readSample(db).catch(() => null);
  samples.set(db, { at: Date.now(), sample });
  return sample;
}

async function readSample(db: Db): Promise<TextSample | null> {
  const { rows } = await db.raw<{ rows: { common: string[] | null; frequencies: number[] | null; bounds: string[] | null }[] }>(
    `select most_common_vals::text::text[] as common, most_common_freqs as frequencies, histogram_bounds::text::text[] as bounds
       from pg_stats where schemaname = current_schema() and tablename = 'transactions_text_trgm_idx' and attname = 'transaction_text'`,
  );
  const row = rows.at(0);
  if (!row) return null;
  const common = (row.common ?? []).map((text, i) => ({ text: text.toLowerCase(), share: row.frequencies?.[i] ?? 0 }));
  const rest = 1 - common.reduce((sum, v) => sum + v.share, 0);
  const bounds = row.bounds ?? [];
  return { values: [...common, ...bounds.map((text) => ({ text: text.toLowerCase(), share: rest / bounds.length }))] };
}
