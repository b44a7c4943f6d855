import { convert, type Rates } from '../exchange-rates/service';

export interface ReceiptForMatch {
  amount: number | null;
  currency: string | null;
  date: string | null;
  merchant: string | null;
}

export interface TransactionForMatch {
  id: string;
  amount: number;
  currency: string;
  date: string;
  name: string;
  merchantName: string | null;
  counterpartyName: string | null;
}

export interface MatchScore {
  confidence: number;
  amountScore: number;
  currencyScore: number;
  dateScore: number;
  nameScore: number;
}

/** At or above: a pending suggestion the user confirms. */
export const SUGGEST_THRESHOLD = 0.75;
/** At or above (and with auto-match on for the team): linked without asking. */
export const AUTO_THRESHOLD = 0.95;

const DAY = 86_400_000;
const words = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1);

function bigrams(s: string): Set<string> {
  const t = words(s).join(' ');
  const out = new Set<string>();
  for (let i = 0; i < t.length - 1; i++) out.add(t.slice(i, i + 2));
  return out;
}

/** Dice coefficient of character bigrams: robust to "AMAZON MKTP DE*2X4" vs "Amazon". */
export function nameSimilarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (!x.size || !y.size) return 0;
  let common = 0;
  for (const g of x) if (y.has(g)) common++;
  const dice = (2 * common) / (x.size + y.size);
  // A merchant named inside the bank's longer text is a strong hint even when Dice is diluted.
  const wa = words(a);
  const contained = wa.length > 0 && wa.every((w) => words(b).some((v) => v.startsWith(w) || w.startsWith(v)));
  return Math.max(dice, contained ? 0.9 : 0);
}

/**
 * How well a receipt fits a transaction. A receipt in another currency than its transaction (a card
 * payment abroad) is compared by its amount converted at the day's reference rate; card schemes add
 * a fee and use their own rate, so a converted amount earns less than an exact one and never enough
 * on its own to be linked without asking.
 */
export function scoreMatch(r: ReceiptForMatch, t: TransactionForMatch, rates?: Rates): MatchScore {
  const spent = Math.abs(t.amount);
  const currency = r.currency;
  const crossCurrency = currency !== null && currency !== t.currency;
  const converted = crossCurrency && r.amount !== null && rates ? convert(r.amount, currency, t.currency, rates) : null;
  let amountScore = 0;
  if (converted !== null && converted > 0) {
    const diff = Math.abs(spent - converted) / converted;
    amountScore = diff <= 0.005 ? 0.9 : diff <= 0.02 ? 0.8 : diff <= 0.05 ? 0.6 : 0;
  } else if (!crossCurrency && r.amount !== null && r.amount > 0) {
    // The same number in two currencies is a coincidence, not evidence: without a rate there is no amount match.
    const diff = Math.abs(spent - r.amount) / r.amount;
    amountScore = diff < 0.0001 ? 1 : diff <= 0.02 ? 0.85 : diff <= 0.1 ? 0.5 * (1 - diff / 0.1) : 0;
  }
  const currencyScore = currency === null ? 0.5 : !crossCurrency ? 1 : converted !== null ? 0.6 : 0;
  let dateScore = 0.4;
  if (r.date) {
    const days = Math.abs(new Date(t.date).getTime() - new Date(r.date).getTime()) / DAY;
    dateScore = days < 1 ? 1 : days <= 3 ? 0.8 : days <= 7 ? 0.5 : days <= 30 ? 0.15 : 0;
  }
  const merchant = r.merchant;
  const nameScore = merchant
    ? Math.max(...[t.name, t.merchantName, t.counterpartyName].filter((n): n is string => !!n).map((n) => nameSimilarity(merchant, n)), 0)
    : 0;
  // The amount is the evidence; currency, date and name decide between candidates with the same amount.
  const confidence = amountScore === 0 ? 0 : 0.5 * amountScore + 0.15 * currencyScore + 0.2 * dateScore + 0.15 * nameScore;
  return {
    confidence: Math.round(confidence * 10_000) / 10_000,
    amountScore,
    currencyScore,
    dateScore,
    nameScore: Math.round(nameScore * 10_000) / 10_000,
  };
}

/** The best candidate, or null; a near tie between two is not a confident suggestion. */
export function bestMatch(
  r: ReceiptForMatch,
  candidates: TransactionForMatch[],
  rates?: Rates,
): { transaction: TransactionForMatch; score: MatchScore } | null {
  const ranked = candidates
    .map((t) => ({ transaction: t, score: scoreMatch(r, t, rates) }))
    .sort((a, b) => b.score.confidence - a.score.confidence);
  const first = ranked.at(0);
  const second = ranked.at(1);
  if (!first || first.score.confidence < SUGGEST_THRESHOLD) return null;
  if (second && first.score.confidence - second.score.confidence < 0.02) return null;
  return first;
}
