import { counterpartyKey } from '../recurring-payments/counterparty-key';

/**
 * The words that name a merchant, however the bank dressed them: counterpartyKey already drops case,
 * accents, punctuation, a processor's `SQ *` prefix, legal forms and every token with a digit (card
 * and store numbers, dates); this also drops what card terminals add around the name (`POS`, `VISA`,
 * `PURCHASE AUTH`, the `.COM` of a web address) and a trailing two-letter region (`SEATTLE WA`), so
 * `POS 4411 STARBUCKS #123 SEATTLE WA` and `Starbucks` share `starbucks`. A city left in comes after
 * the merchant's own word, where the neighbour scoring weighs words less (model.ts).
 */
export function merchantTokens(name: string): string[] {
  const words = counterpartyKey(name.replace(/#\S*/g, ' ')).split(' ');
  while (words.length > 1 && words.at(-1)?.length === 2 && REGION.test(words.at(-1) ?? '')) words.pop();
  const kept = words.filter((w) => w.length > 1 && !TERMINAL_WORDS.has(w));
  // `H&M` is only short words: what names it is better than nothing.
  return kept.length ? kept : words.filter(Boolean);
}

/** The transaction's merchant as the neighbour search reads it: its merchant, else counterparty, else name. */
export function merchantText(t: { name: string; merchantName?: string | null; counterpartyName?: string | null }): string {
  return t.merchantName || t.counterpartyName || t.name;
}

const REGION = /^[a-z]{2}$/;

const TERMINAL_WORDS = new Set([
  'visa',
  'mastercard',
  'mc',
  'debit',
  'credit',
  'auth',
  'authorized',
  'pending',
  'recurring',
  'online',
  'contactless',
  'kartenzahlung',
  'ec',
  'transaction',
  'trx',
  'str',
  'sq',
  'tst',
  // A web address's ending: `GITHUB.COM` is GitHub.
  'com',
  'net',
  'org',
  'io',
]);
