/**
 * The matcher on a labelled set: receipts generated from known transactions
 * (amount, date shifted 0–3 days, merchant written as a person would) among 5,000 transactions with
 * look-alikes, plus receipts whose transaction is absent, and receipts in dollars for euro card
 * payments (converted at the reference rate, with a 0–2 % card fee on top). Prints precision and recall of
 * suggestions and the time per receipt. Pure scoring, no database: it measures the matcher itself.
 *
 *   npx tsx bench/matching.ts
 */
import { bestMatch, type TransactionForMatch } from '../shared/domain/matching/score';
import { convert } from '../shared/domain/exchange-rates/service';
import { reportFigure } from './lib/figures';

const RECEIPTS = Number(process.env.RECEIPTS ?? 300);
const TRANSACTIONS = Number(process.env.TRANSACTIONS ?? 5000);
const DAY = 86_400_000;
const RATES = new Map([
  ['EUR', 1],
  ['USD', 1.08],
]);

// A seeded generator, so every run measures the same data.
let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];

const MERCHANTS = [
  'Coffee Corner',
  'Hotel Adlon',
  'Amazon',
  'Deutsche Bahn',
  'Office Depot',
  'Shell',
  'Uber',
  'Lufthansa',
  'Apple Store',
  'Ikea',
  'Rewe',
  'Edeka',
  'Starbucks',
  'Zalando',
  'MediaMarkt',
  'Saturn',
  'Aldi',
  'Lidl',
  'Booking.com',
  'Airbnb',
  'Google Cloud',
  'Hetzner',
  'Figma',
  'Notion',
  'Slack',
];
const bankText = (m: string) =>
  pick([`${m.toUpperCase()} ${Math.floor(rand() * 9000 + 1000)}`, `CARD ${m.toUpperCase()}`, `${m.toUpperCase()} BERLIN`, m]);
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

function dataset() {
  const start = Date.UTC(2026, 0, 1);
  const txs: TransactionForMatch[] = Array.from({ length: TRANSACTIONS }, (_, i) => {
    const m = pick(MERCHANTS);
    return {
      id: `t${i}`,
      amount: -Math.round((5 + rand() * 400) * 100) / 100,
      currency: rand() < 0.9 ? 'EUR' : 'USD',
      date: isoDay(start + Math.floor(rand() * 300) * DAY),
      name: bankText(m),
      merchantName: rand() < 0.5 ? m : null,
      counterpartyName: null,
    };
  });
  const receipts = Array.from({ length: RECEIPTS }, (_, i) => {
    const present = i % 10 !== 0; // every tenth receipt has no transaction yet
    if (!present) {
      return {
        label: null as string | null,
        r: {
          amount: Math.round((5 + rand() * 400) * 100) / 100 + 0.37,
          currency: 'EUR',
          date: isoDay(start + 320 * DAY),
          merchant: pick(MERCHANTS),
        },
      };
    }
    const t = txs[Math.floor(rand() * txs.length)];
    const merchant = t.merchantName ?? MERCHANTS.find((m) => t.name.includes(m.toUpperCase()) || t.name === m) ?? null;
    const date = isoDay(new Date(t.date).getTime() - Math.floor(rand() * 4) * DAY);
    if (i % 10 === 5 && t.currency === 'EUR') {
      // Paid abroad: the receipt is in dollars, the bank booked euros plus the card scheme's fee.
      const converted = convert(Math.abs(t.amount), 'EUR', 'USD', RATES);
      if (converted === null) throw new Error('RATES must hold a USD rate');
      const dollars = Math.round((converted / (1 + rand() * 0.02)) * 100) / 100;
      return { label: t.id, r: { amount: dollars, currency: 'USD', date, merchant } };
    }
    return { label: t.id, r: { amount: Math.abs(t.amount), currency: t.currency, date, merchant } };
  });
  return { txs, receipts };
}

const { txs, receipts } = dataset();
let tp = 0;
let fp = 0;
let fn = 0;
const started = performance.now();
let crossCurrency = 0;
let crossCurrencyFound = 0;
for (const { label, r } of receipts) {
  // What the database query would hand the scorer: within the date window, a similar amount as it is or converted.
  const similar = (t: TransactionForMatch) => {
    const converted = t.currency === r.currency ? null : convert(r.amount, r.currency, t.currency, RATES);
    return (
      Math.abs(Math.abs(t.amount) - r.amount) <= r.amount * 0.1 ||
      (converted !== null && Math.abs(Math.abs(t.amount) - converted) <= converted * 0.05)
    );
  };
  const candidates = txs.filter((t) => similar(t) && Math.abs(new Date(t.date).getTime() - new Date(r.date).getTime()) <= 30 * DAY);
  const best = bestMatch(r, candidates, RATES);
  if (best && label && best.transaction.id === label) tp++;
  else if (best) fp++;
  if (label && (!best || best.transaction.id !== label)) fn++;
  if (label && r.currency === 'USD' && txs.find((t) => t.id === label)?.currency === 'EUR') {
    crossCurrency++;
    if (best?.transaction.id === label) crossCurrencyFound++;
  }
}
const perReceiptMs = (performance.now() - started) / receipts.length;
const precision = tp / Math.max(1, tp + fp);
const recall = tp / Math.max(1, tp + fn);
console.log(`Matching ${receipts.length} labelled receipts against ${txs.length.toLocaleString()} transactions`);
console.log(`  suggestions: ${tp + fp} (correct ${tp}, wrong ${fp}); missed ${fn}`);
console.log(`  of which paid in another currency: ${crossCurrency}, found ${crossCurrencyFound}`);
reportFigure({ name: 'receipt matching precision', value: precision, unit: '', budget: { on: 'value', atLeast: 0.95 } });
reportFigure({ name: 'receipt matching recall', value: recall, unit: '', budget: { on: 'value', atLeast: 0.9 } });
console.log(`  precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}  (target: precision ≥ 0.95 at recall ≥ 0.90)`);
console.log(`  ${perReceiptMs.toFixed(3)} ms per receipt (scoring, candidates given)`);
