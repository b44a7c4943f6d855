/**
 * Which transactions are one and the same: a booked transaction and the pending one it replaces, or
 * a row entered by hand or imported and the one the bank synced. Precision comes first, because a
 * wrong merge loses a real transaction: every pair must agree on currency, amount (within its
 * tolerance), date (within its window), account and name, and each transaction pairs at most once,
 * so identical purchases on one day (two coffees) pair one to one and any extra stays its own.
 */

/** What the matcher reads of a transaction. */
export interface MatchCandidate {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  amount: number;
  currency: string;
  /** Null: not tied to an account (a manual entry without one matches any account). */
  bankAccountId: string | null;
  /** Every text that names the other side: name, merchant, counterparty, description or reference. */
  names: readonly (string | null)[];
}

export interface MatchRules {
  /** Largest difference in amount allowed, as a share of the larger amount (0: exact, to the ten-thousandth). */
  amountShare: number;
  /** Days the later row may lie after the earlier one. */
  daysAfter: number;
  /** Days the later row may lie before the earlier one (a bank's booking date before a pending date). */
  daysBefore: number;
  /** Lowest name similarity (0 to 1) that counts as the same counterparty. */
  minNameScore: number;
}

/** A pending transaction and its booked version: tips and currency conversions move the amount a little, booking takes days. */
export const PENDING_TO_BOOKED: MatchRules = { amountShare: 0.2, daysAfter: 7, daysBefore: 1, minNameScore: 0.6 };
/** A row entered by hand and the bank's: the same amount, a date the person may have got a few days off. */
export const MANUAL_DUPLICATE: MatchRules = { amountShare: 0, daysAfter: 3, daysBefore: 3, minNameScore: 0.6 };
/** A statement row and the bank's: the same amount, a booking and a value date at most a day apart. */
export const IMPORTED_DUPLICATE: MatchRules = { amountShare: 0, daysAfter: 1, daysBefore: 1, minNameScore: 0.6 };

/** Words in bank texts that say how, not who: they would make any two card payments look alike. */
const NOISE = new Set([
  'pos',
  'card',
  'purchase',
  'payment',
  'debit',
  'credit',
  'sepa',
  'lastschrift',
  'kartenzahlung',
  'visa',
  'mastercard',
  'ec',
  'the',
  'and',
  'www',
  'com',
  'inc',
  'llc',
  'ltd',
  'gmbh',
  'sa',
  'bv',
]);

/** A name as comparable words: lower case, accents dropped, split on anything but letters and digits, noise words out. */
export function nameTokens(name: string | null): string[] {
  if (!name) return [];
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !NOISE.has(w));
}

const isNumber = (w: string) => /^\p{N}+$/u.test(w);

/** Letter trigrams of the words run together, for names a bank writes without spaces ("AMAZONMKTPLACE"). */
function trigrams(words: readonly string[]): Set<string> {
  const text = words.filter((w) => !isNumber(w)).join('');
  const out = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) out.add(text.slice(i, i + 3));
  return out;
}

/**
 * How alike two names are, 0 to 1: the share of the shorter name's words found in the other, or
 * the overlap of their letter trigrams, whichever is higher. Numbers must agree: two names that
 * both carry numbers and share none ("Merchant 3", "Merchant 4"; two store numbers) score 0.
 */
export function nameScore(a: string | null, b: string | null): number {
  const ta = nameTokens(a);
  const tb = nameTokens(b);
  if (!ta.length || !tb.length) return 0;
  const na = ta.filter(isNumber);
  const nb = tb.filter(isNumber);
  if (na.length && nb.length && !na.some((n) => nb.includes(n))) return 0;
  const wa = new Set(ta.filter((w) => !isNumber(w)));
  const wb = new Set(tb.filter((w) => !isNumber(w)));
  if (!wa.size || !wb.size) return 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const words = shared / Math.min(wa.size, wb.size);
  const ga = trigrams(ta);
  const gb = trigrams(tb);
  let common = 0;
  for (const g of ga) if (gb.has(g)) common++;
  const grams = ga.size && gb.size ? (2 * common) / (ga.size + gb.size) : 0;
  return Math.max(words, grams);
}

/** The best score of any of one's names against any of the other's. */
export function namesScore(a: readonly (string | null)[], b: readonly (string | null)[]): number {
  let best = 0;
  for (const x of a) for (const y of b) best = Math.max(best, nameScore(x, y));
  return best;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/** Amounts in ten-thousandths, as the database keeps them, so 0.1 + 0.2 compares equal to 0.3. */
const units = (amount: number) => Math.round(amount * 10_000);

export interface MatchedPair {
  /** The new transaction (the one that stays). */
  incoming: string;
  /** The one it replaces. */
  existing: string;
  score: number;
}

/**
 * Pairs new transactions with the existing ones they duplicate, each at most once. A pair needs the
 * same currency and sign, an amount within the rules' share, `incoming`'s date within the window
 * around `existing`'s, compatible accounts and similar names. Among the pairs allowed the closest
 * go first (nearest date, then nearest amount, then the best name, then the ids, so the result
 * does not depend on the input's order).
 */
export function pairDuplicates(incoming: readonly MatchCandidate[], existing: readonly MatchCandidate[], rules: MatchRules): MatchedPair[] {
  const options: { incoming: string; existing: string; days: number; amount: number; score: number }[] = [];
  const read = existing.map((e) => ({ e, units: units(e.amount), day: dayNumber(e.date) }));
  // Exact rules pair only equal amounts: each row looks at those alone, not at every existing row
  // (a sync page against a team's history is a thousand rows by thousands).
  const byUnits = new Map<number, typeof read>();
  if (rules.amountShare === 0) {
    for (const r of read) {
      const same = byUnits.get(r.units);
      if (same) same.push(r);
      else byUnits.set(r.units, [r]);
    }
  }
  for (const n of incoming) {
    const nDay = dayNumber(n.date);
    const nUnits = units(n.amount);
    for (const { e, units: eUnits, day: eDay } of rules.amountShare === 0 ? (byUnits.get(nUnits) ?? []) : read) {
      if (e.id === n.id || e.currency !== n.currency) continue;
      if (n.bankAccountId && e.bankAccountId && n.bankAccountId !== e.bankAccountId) continue;
      if (Math.sign(eUnits) !== Math.sign(nUnits)) continue;
      const amount = Math.abs(eUnits - nUnits);
      if (amount > Math.max(Math.abs(eUnits), Math.abs(nUnits)) * rules.amountShare) continue;
      const days = nDay - eDay;
      if (days > rules.daysAfter || -days > rules.daysBefore) continue;
      const score = namesScore(n.names, e.names);
      if (score < rules.minNameScore) continue;
      options.push({ incoming: n.id, existing: e.id, days: Math.abs(days), amount, score });
    }
  }
  options.sort(
    (x, y) =>
      x.days - y.days ||
      x.amount - y.amount ||
      y.score - x.score ||
      (x.incoming < y.incoming ? -1 : x.incoming > y.incoming ? 1 : 0) ||
      (x.existing < y.existing ? -1 : x.existing > y.existing ? 1 : 0),
  );
  // Closest first: each row takes its nearest partner still free.
  const partnerOf = new Map<string, string>();
  const holderOf = new Map<string, string>();
  for (const o of options) {
    if (partnerOf.has(o.incoming) || holderOf.has(o.existing)) continue;
    partnerOf.set(o.incoming, o.existing);
    holderOf.set(o.existing, o.incoming);
  }
  rematchLeftOver(options, partnerOf, holderOf);
  const scoreOf = new Map(options.map((o) => [`${o.incoming} ${o.existing}`, o.score]));
  return [...partnerOf].map(([incoming, existing]) => ({ incoming, existing, score: scoreOf.get(`${incoming} ${existing}`) ?? 0 }));
}

/**
 * Closest-first alone can cross look-alikes: two coffees of one price on consecutive days, each
 * booked a day late, pair the first day's statement row with the second day's booking, and the
 * second day's row is left over (created twice). A row left over takes a partner another row holds
 * when that row can move to one still free, and so on along the chain (an augmenting path, in each
 * row's order of preference): every row that can pair does, and no allowed pair is ever broken for
 * one that is not.
 */
function rematchLeftOver(
  options: readonly { incoming: string; existing: string }[],
  partnerOf: Map<string, string>,
  holderOf: Map<string, string>,
): void {
  const choices = new Map<string, string[]>();
  for (const o of options) {
    const list = choices.get(o.incoming);
    if (list) list.push(o.existing);
    else choices.set(o.incoming, [o.existing]);
  }
  const take = (incoming: string, seen: Set<string>): boolean => {
    for (const existing of choices.get(incoming) ?? []) {
      if (seen.has(existing)) continue;
      seen.add(existing);
      const holder = holderOf.get(existing);
      if (holder === undefined || take(holder, seen)) {
        partnerOf.set(incoming, existing);
        holderOf.set(existing, incoming);
        return true;
      }
    }
    return false;
  };
  for (const incoming of choices.keys()) if (!partnerOf.has(incoming)) take(incoming, new Set());
}
