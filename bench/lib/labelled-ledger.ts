/**
 * A labelled ledger for the ledger benches (learned categories, duplicate detection): a small
 * company's card and bank transactions over two years, each with the category its team gave it.
 * Merchant names arrive as banks send them: terminal prefixes (`POS`, `SQ *`, `PAYPAL *`), store and
 * card numbers, a city and region after the name, case as the bank likes it and now and then a
 * typo. Some merchants are ambiguous (Amazon is office supplies under 150 and equipment above; the
 * railway is public transport for a commuter ticket and travel for a long trip), some first appear
 * late (no history to learn from), and a few labels are simply the team's inconsistency. Seeded:
 * the same `size` and `seed` give the same rows.
 */
import { seededRandom as random } from './seeded-random';

export interface LabelledTransaction {
  id: string;
  /** YYYY-MM-DD; rows come sorted by it. */
  date: string;
  /** As the bank shows it, noise and all. */
  name: string;
  amount: number;
  currency: string;
  accountId: string;
  categorySlug: string;
  /** The merchant behind the noise, for benches that need the truth of who was paid. */
  merchant: string;
  /** The bank's own category, as bank-a sends it. */
  providerCategory: string | null;
}

interface Merchant {
  name: string;
  /** [category, share of its transactions, amount range] */
  kinds: [slug: string, min: number, max: number][];
  /** Transactions per month. */
  rate: number;
  accounts: readonly string[];
  provider: string | null;
  /** Month (0..23) its first transaction comes in. */
  from?: number;
  income?: boolean;
}

const CARD = 'acct-card';
const MAIN = 'acct-main';
const TRAVEL = 'acct-travel';
const ANY = [CARD, MAIN, TRAVEL];

const MERCHANTS: Merchant[] = [
  { name: 'GitHub', kinds: [['software', 4, 21]], rate: 3, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Atlassian', kinds: [['software', 10, 80]], rate: 2, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Slack Technologies', kinds: [['software', 8, 60]], rate: 2, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Figma', kinds: [['software', 12, 45]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Notion Labs', kinds: [['software', 8, 16]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Google Workspace', kinds: [['software', 6, 72]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Amazon Web Services', kinds: [['software', 40, 900]], rate: 1, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Hetzner Online', kinds: [['software', 20, 240]], rate: 1, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Adobe', kinds: [['software', 24, 70]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Zoom Video', kinds: [['software', 13, 15]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES', from: 14 },
  {
    name: 'Amazon Mktplace',
    kinds: [
      ['office-supplies', 8, 150],
      ['equipment', 300, 1800],
    ],
    rate: 6,
    accounts: [CARD, MAIN],
    provider: 'GENERAL_MERCHANDISE',
  },
  {
    name: 'Apple',
    kinds: [
      ['software', 1, 20],
      ['equipment', 900, 3500],
    ],
    rate: 1.5,
    accounts: [CARD],
    provider: 'GENERAL_MERCHANDISE',
  },
  { name: 'Staples', kinds: [['office-supplies', 10, 120]], rate: 2, accounts: [CARD], provider: 'GENERAL_MERCHANDISE' },
  { name: 'Viking Direct', kinds: [['office-supplies', 20, 200]], rate: 1, accounts: [MAIN], provider: 'GENERAL_MERCHANDISE' },
  { name: 'Dell Technologies', kinds: [['equipment', 600, 2600]], rate: 0.3, accounts: [MAIN], provider: 'GENERAL_MERCHANDISE' },
  { name: 'Starbucks', kinds: [['meals', 3, 14]], rate: 12, accounts: [CARD, TRAVEL], provider: 'FOOD_AND_DRINK' },
  { name: 'Pret A Manger', kinds: [['meals', 5, 18]], rate: 6, accounts: [CARD, TRAVEL], provider: 'FOOD_AND_DRINK' },
  { name: 'Vapiano', kinds: [['meals', 15, 140]], rate: 3, accounts: [CARD], provider: 'FOOD_AND_DRINK' },
  { name: 'Lieferando', kinds: [['meals', 18, 90]], rate: 4, accounts: [CARD], provider: 'FOOD_AND_DRINK' },
  { name: 'Uber Eats', kinds: [['meals', 12, 60]], rate: 3, accounts: [CARD], provider: 'FOOD_AND_DRINK' },
  {
    name: 'Rewe',
    kinds: [
      ['meals', 5, 60],
      ['office-supplies', 5, 60],
    ],
    rate: 5,
    accounts: [CARD],
    provider: 'FOOD_AND_DRINK',
  },
  { name: 'Uber', kinds: [['travel', 9, 70]], rate: 4, accounts: [TRAVEL, CARD], provider: 'TRANSPORTATION' },
  {
    name: 'Deutsche Bahn',
    kinds: [
      ['public-transport', 3, 40],
      ['travel', 80, 320],
    ],
    rate: 6,
    accounts: [TRAVEL, CARD],
    provider: 'TRANSPORTATION',
  },
  { name: 'BVG', kinds: [['public-transport', 3, 9]], rate: 5, accounts: [CARD], provider: 'TRANSPORTATION' },
  { name: 'Lufthansa', kinds: [['travel', 120, 1400]], rate: 1, accounts: [TRAVEL], provider: 'TRAVEL' },
  { name: 'easyJet', kinds: [['travel', 40, 300]], rate: 0.7, accounts: [TRAVEL], provider: 'TRAVEL' },
  { name: 'Marriott Hotels', kinds: [['accommodation', 110, 600]], rate: 1, accounts: [TRAVEL], provider: 'TRAVEL' },
  { name: 'Booking.com', kinds: [['accommodation', 70, 500]], rate: 1.5, accounts: [TRAVEL], provider: 'TRAVEL' },
  { name: 'Airbnb', kinds: [['accommodation', 90, 900]], rate: 0.8, accounts: [TRAVEL], provider: 'TRAVEL', from: 10 },
  { name: 'Shell', kinds: [['travel', 30, 110]], rate: 2, accounts: [CARD], provider: 'TRANSPORTATION' },
  { name: 'Aral Station', kinds: [['travel', 30, 110]], rate: 1.5, accounts: [CARD], provider: 'TRANSPORTATION' },
  { name: 'Deutsche Telekom', kinds: [['telecommunications', 40, 95]], rate: 1, accounts: [MAIN], provider: 'RENT_AND_UTILITIES' },
  { name: 'Vodafone', kinds: [['telecommunications', 25, 60]], rate: 1, accounts: [MAIN], provider: 'RENT_AND_UTILITIES' },
  { name: 'WeWork', kinds: [['rent', 900, 2400]], rate: 1, accounts: [MAIN], provider: 'RENT_AND_UTILITIES' },
  { name: 'Allianz Versicherung', kinds: [['insurance', 60, 400]], rate: 1, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Hiscox', kinds: [['insurance', 30, 90]], rate: 1, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Google Ads', kinds: [['marketing', 50, 2000]], rate: 2, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Meta Platforms', kinds: [['marketing', 30, 1500]], rate: 2, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'LinkedIn', kinds: [['marketing', 40, 900]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES' },
  { name: 'Mailchimp', kinds: [['marketing', 20, 300]], rate: 1, accounts: [CARD], provider: 'GENERAL_SERVICES', from: 16 },
  { name: 'Steuerberater Schmidt', kinds: [['professional-services', 300, 1200]], rate: 1, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Notar Weber', kinds: [['professional-services', 150, 900]], rate: 0.2, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Upwork', kinds: [['professional-services', 100, 2500]], rate: 2, accounts: [MAIN], provider: 'GENERAL_SERVICES' },
  { name: 'Bank Fee', kinds: [['bank-fees', 2, 25]], rate: 2, accounts: ANY, provider: 'BANK_FEES' },
  { name: 'Stripe Payments', kinds: [['bank-fees', 5, 120]], rate: 2, accounts: [MAIN], provider: 'BANK_FEES' },
  { name: 'Finanzamt Berlin', kinds: [['taxes', 500, 9000]], rate: 0.5, accounts: [MAIN], provider: 'GOVERNMENT_AND_NON_PROFIT' },
  { name: 'Spiegel Online', kinds: [['books-and-subscriptions', 10, 20]], rate: 1, accounts: [CARD], provider: 'GENERAL_MERCHANDISE' },
  { name: "O'Reilly Media", kinds: [['books-and-subscriptions', 40, 50]], rate: 1, accounts: [CARD], provider: 'GENERAL_MERCHANDISE' },
  { name: 'Thalia', kinds: [['books-and-subscriptions', 10, 60]], rate: 1, accounts: [CARD], provider: 'GENERAL_MERCHANDISE' },
  { name: 'Acme Corp', kinds: [['revenue', 800, 12000]], rate: 3, accounts: [MAIN], provider: 'INCOME', income: true },
  { name: 'Globex GmbH', kinds: [['revenue', 500, 9000]], rate: 2, accounts: [MAIN], provider: 'INCOME', income: true },
  { name: 'Initech Ltd', kinds: [['revenue', 1000, 6000]], rate: 1, accounts: [MAIN], provider: 'INCOME', income: true, from: 12 },
  { name: 'Zinsgutschrift', kinds: [['interest-income', 1, 40]], rate: 1, accounts: [MAIN], provider: 'INCOME', income: true },
  { name: 'Personio Payroll', kinds: [['salaries', 3000, 9000]], rate: 2, accounts: [MAIN], provider: 'TRANSFER_OUT' },
];

const PREFIXES = ['', '', '', 'POS ', 'CARD PURCHASE ', 'VISA ', 'SQ *', 'PAYPAL *', 'SUMUP *', 'Kartenzahlung ', 'LASTSCHRIFT '];
const CITIES = ['BERLIN DE', 'MUENCHEN DE', 'HAMBURG DE', 'LONDON GB', 'SEATTLE WA', 'DUBLIN IE', 'PARIS FR', 'AMSTERDAM NL'];
const MONTHS = 24;
const START = Date.UTC(2024, 0, 1);

/**
 * At least `size` labelled transactions, sorted by date. `labelNoise` is the share whose category is
 * another one of the tree (the team's own inconsistency); `typos` the share of names misspelt.
 */
export function labelledLedger(size: number, opts: { seed?: number; labelNoise?: number; typos?: number } = {}): LabelledTransaction[] {
  const rnd = random(opts.seed ?? 30);
  const labelNoise = opts.labelNoise ?? 0.02;
  const typos = opts.typos ?? 0.05;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const slugs = [...new Set(MERCHANTS.flatMap((m) => m.kinds.map(([s]) => s)))];
  const perMonth = MERCHANTS.reduce((s, m) => s + m.rate * (MONTHS - (m.from ?? 0)), 0);
  const scale = size / perMonth;
  const rows: LabelledTransaction[] = [];
  for (const m of MERCHANTS) {
    const n = Math.ceil(m.rate * (MONTHS - (m.from ?? 0)) * scale);
    // Each merchant's branches: a store number and a city it keeps.
    const branches = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({
      store: Math.floor(rnd() * 9000) + 100,
      city: pick(CITIES),
    }));
    for (let i = 0; i < n; i++) {
      const day = Math.floor((m.from ?? 0) * 30.4 + rnd() * (MONTHS - (m.from ?? 0)) * 30.4);
      const [slug, min, max] = pick(m.kinds);
      const amount = Math.round((min + rnd() * (max - min)) * 100) / 100;
      const categorySlug = rnd() < labelNoise ? pick(slugs) : slug;
      rows.push({
        id: '',
        date: new Date(START + day * 86_400_000).toISOString().slice(0, 10),
        name: bankName(m.name, pick(branches), rnd, typos),
        amount: m.income ? amount : -amount,
        currency: 'EUR',
        accountId: pick(m.accounts),
        categorySlug,
        merchant: m.name,
        providerCategory: rnd() < 0.8 ? m.provider : null,
      });
    }
  }
  rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  rows.forEach((r, i) => (r.id = `lt-${String(i).padStart(6, '0')}`));
  return rows;
}

function bankName(merchant: string, branch: { store: number; city: string }, rnd: () => number, typos: number): string {
  let name = merchant;
  if (rnd() < typos) name = misspelt(name, rnd);
  const r = rnd();
  const prefix = PREFIXES[Math.floor(rnd() * PREFIXES.length)];
  if (r < 0.3) name = `${prefix}${name}`;
  else if (r < 0.55) name = `${prefix}${name} #${branch.store}`;
  else if (r < 0.8) name = `${prefix}${name} ${branch.store} ${branch.city}`;
  else name = `${prefix}${name} ${branch.city}`;
  return rnd() < 0.6 ? name.toUpperCase() : name;
}

/** One letter dropped, doubled or swapped with the next, away from the first. */
function misspelt(name: string, rnd: () => number): string {
  const at = 1 + Math.floor(rnd() * (name.length - 2));
  const kind = rnd();
  if (kind < 0.34) return name.slice(0, at) + name.slice(at + 1);
  if (kind < 0.67) return name.slice(0, at) + name[at] + name.slice(at);
  return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
}

/** The earlier `share` of the rows (by date) to learn from, and the later rest to predict. */
export function splitByTime<T extends { date: string }>(rows: readonly T[], share = 0.7): { train: T[]; test: T[] } {
  const at = Math.floor(rows.length * share);
  return { train: rows.slice(0, at), test: rows.slice(at) };
}
