import { merchantTokens } from './normalise';

/**
 * Transactions the team categorised that look alike, as one: same merchant text, account, sign,
 * amount band and category. The store sends them grouped (load.ts); the bench, one per row.
 */
export interface LearnedExample {
  /** The merchant as the bank named it (merchant, else counterparty, else name). */
  text: string;
  accountId: string | null;
  /** A representative amount, signed. */
  amount: number;
  categorySlug: string;
  /** How many transactions it stands for. */
  count: number;
  /** Some of those transactions, newest first: the neighbours an explanation names. */
  samples: readonly { id: string; name: string }[];
}

/** What a new transaction asks about itself. */
export interface LearnedQuery {
  text: string;
  accountId: string | null;
  amount: number;
}

export interface Suggestion {
  categorySlug: string;
  /** 0..1: the winning category's share of the neighbours' weight, shrunk when the neighbours are few or far. */
  confidence: number;
  /** How many past transactions voted for it. */
  support: number;
  /** Up to three of them, the nearest first. */
  neighbours: { id: string; name: string }[];
}

interface Entry {
  tokens: string[];
  weight: number;
  accountId: string | null;
  band: number;
  sign: number;
  categorySlug: string;
  count: number;
  samples: { id: string; name: string }[];
}

/** Neighbours that vote. */
const K = 8;
/** Below this name similarity a past transaction is no neighbour. */
const MIN_SIMILARITY = 0.45;
/** Weight an absent voter holds against the winner: few neighbours mean less confidence. */
const PRIOR = 0.3;
/** Shared trigrams (Dice) for an unseen word to stand for a known one: `starbuks` for `starbucks`. */
const MIN_SPELLING = 0.6;
const SAMPLES_KEPT = 3;
/** Texts and answers remembered at most, so a run over a million distinct names does not hold them all. */
const MEMO_SIZE = 20_000;

/**
 * Half-octave amount bands: 10 and 14 are one band apart, 10 and 40 four. load.ts's SQL computes the
 * same expression (floor(2·log2(|amount| + 1))).
 */
export const amountBand = (amount: number) => Math.floor(2 * Math.log2(Math.abs(amount) + 1));

/** The first word names the merchant; the words after it (a branch, a city, a product) matter less. */
const positionWeight = (i: number) => 1 / (1 + i) ** 2;

/**
 * Nearest neighbours over the team's past category choices: similar merchant words first (a
 * misspelt word matched through its trigrams), then close amounts, the same account and the same
 * direction. Built once per batch of new transactions; `suggest` reads only the entries sharing a word.
 */
export class LearnedModel {
  private readonly entries: Entry[] = [];
  private readonly postings = new Map<string, number[]>();
  private readonly trigrams = new Map<string, string[]>();
  private readonly spellings = new Map<string, [string, number][]>();
  private readonly byKey = new Map<string, Entry>();
  /** Each merchant text's words, and each question's answer until the model learns more: a sync page names the same merchants again and again. */
  private readonly words = new Map<string, string[]>();
  private readonly answers = new Map<string, Suggestion | null>();

  constructor(examples: Iterable<LearnedExample>) {
    this.add(examples);
  }

  /**
   * More of the team's choices, as if they had been loaded with the rest: a sync pass adds what its
   * rules chose on one page before the next page asks (the model is loaded once per pass).
   */
  add(examples: Iterable<LearnedExample>): void {
    const byKey = this.byKey;
    // A new word may now stand for an unseen one it did not before, and any answer may change.
    this.spellings.clear();
    this.answers.clear();
    for (const ex of examples) {
      const tokens = this.tokensOf(ex.text);
      if (!tokens.length) continue;
      const band = amountBand(ex.amount);
      const sign = Math.sign(ex.amount);
      const key = `${tokens.join(' ')}|${ex.accountId ?? ''}|${sign}|${band}|${ex.categorySlug}`;
      const known = byKey.get(key);
      if (known) {
        known.count += ex.count;
        if (known.samples.length < SAMPLES_KEPT) known.samples.push(...ex.samples.slice(0, SAMPLES_KEPT - known.samples.length));
        continue;
      }
      const weight = tokens.reduce((s, _t, i) => s + positionWeight(i), 0);
      const entry: Entry = {
        tokens,
        weight,
        accountId: ex.accountId,
        band,
        sign,
        categorySlug: ex.categorySlug,
        count: ex.count,
        samples: ex.samples.slice(0, SAMPLES_KEPT),
      };
      byKey.set(key, entry);
      const index = this.entries.push(entry) - 1;
      for (const t of new Set(tokens)) {
        let list = this.postings.get(t);
        if (!list) {
          this.postings.set(t, (list = []));
          for (const g of trigramsOf(t)) {
            const words = this.trigrams.get(g);
            if (words) words.push(t);
            else this.trigrams.set(g, [t]);
          }
        }
        list.push(index);
      }
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The category the neighbours agree on, or null when no past transaction is near enough. The same
   * question (the same words, account, direction and amount band) gets the same answer, shared:
   * callers do not change it.
   */
  suggest(q: LearnedQuery): Suggestion | null {
    const tokens = this.tokensOf(q.text);
    if (!tokens.length) return null;
    const band = amountBand(q.amount);
    const sign = Math.sign(q.amount);
    const key = `${tokens.join(' ')}|${q.accountId ?? ''}|${sign}|${band}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      if (this.answers.size >= MEMO_SIZE) this.answers.clear();
      this.answers.set(key, (answer = this.nearest(tokens, q.accountId, band, sign)));
    }
    return answer;
  }

  private tokensOf(text: string): string[] {
    let tokens = this.words.get(text);
    if (!tokens) {
      if (this.words.size >= MEMO_SIZE) this.words.clear();
      this.words.set(text, (tokens = merchantTokens(text)));
    }
    return tokens;
  }

  private nearest(tokens: readonly string[], accountId: string | null, band: number, sign: number): Suggestion | null {
    const overlap = new Map<number, number>();
    let queryWeight = 0;
    tokens.forEach((token, i) => {
      const w = positionWeight(i);
      queryWeight += w;
      for (const [word, likeness] of this.spellingsOf(token)) {
        for (const index of this.postings.get(word) ?? []) {
          const entry = this.entries[index];
          // The entry's weight for the word: its own position there.
          const at = entry.tokens.indexOf(word);
          overlap.set(index, (overlap.get(index) ?? 0) + likeness * (w + positionWeight(at)) * 0.5);
        }
      }
    });
    const near: { entry: Entry; weight: number }[] = [];
    for (const [index, shared] of overlap) {
      const entry = this.entries[index];
      const similarity = (2 * shared) / (queryWeight + entry.weight);
      if (similarity < MIN_SIMILARITY) continue;
      const amount = 1 / (1 + 0.35 * Math.abs(entry.band - band));
      const account = !accountId || !entry.accountId || accountId === entry.accountId ? 1 : 0.6;
      const direction = entry.sign === sign ? 1 : 0.3;
      near.push({ entry, weight: similarity ** 4 * amount * account * direction });
    }
    if (!near.length) return null;
    near.sort((a, b) => b.weight - a.weight);
    const votes = new Map<string, { weight: number; support: number; neighbours: { id: string; name: string }[] }>();
    let total = 0;
    for (const { entry, weight } of near.slice(0, K)) {
      const vote = weight * entry.count;
      total += vote;
      let v = votes.get(entry.categorySlug);
      if (!v) votes.set(entry.categorySlug, (v = { weight: 0, support: 0, neighbours: [] }));
      v.weight += vote;
      v.support += entry.count;
      for (const s of entry.samples) if (v.neighbours.length < SAMPLES_KEPT) v.neighbours.push(s);
    }
    let best: [string, { weight: number; support: number; neighbours: { id: string; name: string }[] }] | undefined;
    for (const v of votes) if (!best || v[1].weight > best[1].weight) best = v;
    if (!best) return null;
    const [categorySlug, win] = best;
    return { categorySlug, confidence: win.weight / (total + PRIOR), support: win.support, neighbours: win.neighbours };
  }

  /** A known word stands for itself; an unseen one for the known words spelt most like it. */
  private spellingsOf(token: string): [string, number][] {
    if (this.postings.has(token)) return [[token, 1]];
    const cached = this.spellings.get(token);
    if (cached) return cached;
    const grams = trigramsOf(token);
    const shared = new Map<string, number>();
    for (const g of grams) for (const word of this.trigrams.get(g) ?? []) shared.set(word, (shared.get(word) ?? 0) + 1);
    const found: [string, number][] = [];
    for (const [word, n] of shared) {
      const dice = (2 * n) / (grams.size + trigramsOf(word).size);
      if (dice >= MIN_SPELLING) found.push([word, dice]);
    }
    found.sort((a, b) => b[1] - a[1]);
    const kept = found.slice(0, 3);
    this.spellings.set(token, kept);
    return kept;
  }
}

function trigramsOf(word: string): Set<string> {
  const padded = `  ${word} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}
