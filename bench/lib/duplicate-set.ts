/**
 * A labelled set for duplicate detection: a small business's card and direct-debit purchases on two
 * bank accounts, each seen the ways the ledger meets it — synced by the bank (booking date a day or
 * two after the purchase, the bank's upper-case text with a store number, sometimes a clean merchant
 * name), in a CSV statement of one account that overlaps the synced range (value date, a prefix such
 * as "Kartenzahlung", names run together, now and then a card number instead of the store's), and as
 * entries a person made by hand before the bank brought them (a short name, a date a day or three
 * off, now and then a mistyped amount). Genuinely identical purchases (two coffees on one day) are
 * generated on purpose, as are cash purchases entered by hand that the bank never sees. Every row
 * names the purchase it stands for, so a pairing can be judged.
 */
import type { MatchCandidate } from '../../shared/domain/transactions/match';
import { seededRandom as random } from './seeded-random';

export interface LabelledRow extends MatchCandidate {
  /** The purchase the row stands for. */
  purchase: number;
}

export interface DuplicateSet {
  /** The bank's rows, every purchase of the synced range (the last 60% of the days). */
  synced: LabelledRow[];
  /** A statement of the first account over the first 70% of the days: overlapping the synced range. */
  csv: LabelledRow[];
  /** Entries made by hand: purchases the bank later syncs, and cash purchases it never will. */
  manual: LabelledRow[];
  /**
   * Each purchase's look: merchant, amount and day. Two purchases that look alike (two coffees on one
   * day, made on purpose or by chance) are interchangeable: pairing either with either loses nothing.
   */
  lookOf: Map<number, string>;
  /** Purchases made on purpose as the second of two identical ones. */
  twins: number;
}

interface Merchant {
  name: string;
  /** How the bank writes it; `#` is the store number. */
  bank: string;
  /** How the statement writes it. */
  csv: string;
  /** How a person writes it. */
  manual: string;
  /** Fixed prices (coffees, subscriptions) or a range with cents. */
  prices: number[] | [min: number, max: number, 'range'];
  /** Share of all purchases. */
  weight: number;
}

const M = (name: string, bank: string, csv: string, manual: string, prices: Merchant['prices'], weight: number): Merchant => ({
  name,
  bank,
  csv,
  manual,
  prices,
  weight,
});

const MERCHANTS: Merchant[] = [
  M('Starbucks', 'STARBUCKS #', 'Kartenzahlung STARBUCKS # BERLIN', 'starbucks', [2.8, 3.5, 4.2, 4.9], 10),
  M('Coffee Fellows', 'COFFEE FELLOWS #', 'Kartenzahlung COFFEEFELLOWS #', 'coffee fellows', [2.8, 3.2, 3.9], 6),
  M('Balzac Coffee', 'BALZAC COFFEE #', 'BALZAC COFFEE # HAMBURG', 'Balzac', [2.8, 3.3], 4),
  M('Rewe', 'REWE MARKT #', 'Kartenzahlung REWE Markt GmbH #', 'Rewe', [4, 120, 'range'], 8),
  M('Edeka', 'EDEKA #', 'EDEKA CENTER #', 'edeka groceries', [4, 90, 'range'], 5),
  M('Lidl', 'LIDL #', 'Lidl Dienstleistung GmbH #', 'lidl', [3, 60, 'range'], 4),
  M('Deutsche Bahn', 'DB VERTRIEB GMBH', 'SEPA Lastschrift DB Vertrieb GmbH', 'Deutsche Bahn ticket', [9.9, 19.9, 29.9, 49.9, 79.9], 5),
  M('Lufthansa', 'LUFTHANSA #', 'LUFTHANSA AG #', 'lufthansa flight', [89, 640, 'range'], 1),
  M('Uber', 'UBER *TRIP', 'UBER BV HELP.UBER.COM', 'uber', [7, 45, 'range'], 5),
  M('Bolt', 'BOLT.EU #', 'Bolt Operations #', 'bolt ride', [6, 30, 'range'], 2),
  M('Amazon', 'AMAZON MKTPLACE', 'Kartenzahlung AMAZONMKTPLACE', 'amazon', [6, 180, 'range'], 6),
  M('Amazon Web Services', 'AWS EMEA', 'AMAZON WEB SERVICES EMEA SARL', 'aws bill', [20, 900, 'range'], 1),
  M('GitHub', 'GITHUB INC', 'GITHUB.COM', 'github', [4, 21, 44], 1),
  M('Slack', 'SLACK TECHNOLOGIES', 'Slack Technologies Ltd', 'slack', [8.75, 12.5], 1),
  M('Notion', 'NOTION LABS', 'NOTION.SO', 'notion', [8, 10], 1),
  M('Figma', 'FIGMA', 'FIGMA INC', 'figma', [12, 45], 1),
  M('Adobe', 'ADOBE *CREATIVE CLD', 'Adobe Systems Software', 'adobe cc', [23.79, 66.45], 1),
  M('Hetzner', 'HETZNER ONLINE', 'SEPA Lastschrift Hetzner Online GmbH', 'hetzner server', [4.51, 38.9, 'range'], 1),
  M('Shell', 'SHELL #', 'SHELL DEUTSCHLAND #', 'shell fuel', [30, 95, 'range'], 3),
  M('Aral', 'ARAL STATION #', 'ARAL AG #', 'aral', [25, 90, 'range'], 2),
  M('Ikea', 'IKEA #', 'IKEA Deutschland #', 'ikea', [9, 400, 'range'], 1),
  M('MediaMarkt', 'MEDIA MARKT #', 'MediaMarkt Saturn #', 'media markt', [15, 900, 'range'], 1),
  M('Rossmann', 'ROSSMANN #', 'Dirk Rossmann GmbH #', 'rossmann', [2, 40, 'range'], 3),
  M('Vodafone', 'VODAFONE GMBH', 'SEPA Lastschrift Vodafone GmbH', 'vodafone phone', [39.99, 59.99], 1),
  M('Telekom', 'TELEKOM DEUTSCHLAND', 'Telekom Deutschland GmbH', 'telekom internet', [44.95], 1),
  M('Trattoria Roma', 'TRATTORIA ROMA', 'TRATTORIA ROMA BERLIN', 'lunch trattoria', [12, 140, 'range'], 3),
  M("McDonald's", 'MCDONALDS #', "McDonald's Restaurant #", 'mcdonalds', [4.5, 18, 'range'], 3),
  M('Wolt', 'WOLT', 'Wolt Enterprises Oy', 'wolt delivery', [14, 60, 'range'], 2),
  M('Lieferando', 'LIEFERANDO.DE', 'Takeaway.com Lieferando', 'lieferando', [15, 55, 'range'], 2),
  M('Office Depot', 'OFFICE DEPOT #', 'Office Depot Deutschland #', 'office supplies', [5, 150, 'range'], 2),
];

const START = Date.UTC(2024, 0, 1);
/** A small business's card: about fifteen purchases a day over its two accounts. */
const PER_DAY = 15;
const dateOf = (day: number) => new Date(START + day * 86_400_000).toISOString().slice(0, 10);
const cents = (n: number) => Math.round(n * 100) / 100;

export function duplicateSet(purchases: number, seed = 30): DuplicateSet {
  const DAYS = Math.max(30, Math.ceil(purchases / PER_DAY));
  const rand = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const chance = (p: number) => rand() < p;
  const totalWeight = MERCHANTS.reduce((n, m) => n + m.weight, 0);
  const merchantOf = () => {
    let w = rand() * totalWeight;
    for (const m of MERCHANTS) if ((w -= m.weight) < 0) return m;
    return MERCHANTS[0];
  };
  const priceOf = (m: Merchant) =>
    m.prices[2] === 'range' ? cents(m.prices[0] + rand() * (m.prices[1] - m.prices[0])) : pick(m.prices as number[]);
  // Each merchant has a few stores; a purchase is at one of them.
  const storeOf = () => String(1000 + Math.floor(rand() * 4) * 137);
  const withStore = (text: string, store: string) => text.replace('#', store).trim();

  interface Purchase {
    id: number;
    account: string;
    day: number;
    merchant: Merchant;
    amount: number;
    store: string;
  }
  const all: Purchase[] = [];
  let twins = 0;
  while (all.length < purchases) {
    const p: Purchase = {
      id: all.length,
      account: chance(0.7) ? 'acc-1' : 'acc-2',
      day: Math.floor(rand() * DAYS),
      merchant: merchantOf(),
      amount: 0,
      store: storeOf(),
    };
    p.amount = -priceOf(p.merchant);
    all.push(p);
    // The same purchase again on the same day (a second coffee, a colleague's ticket).
    if (chance(0.04) && all.length < purchases) {
      const twin = { ...p, id: all.length };
      all.push(twin);
      twins++;
    }
  }

  const syncedFrom = Math.floor(DAYS * 0.4);
  const csvUntil = Math.floor(DAYS * 0.7);
  const synced: LabelledRow[] = [];
  const csv: LabelledRow[] = [];
  const manual: LabelledRow[] = [];
  for (const p of all) {
    const bankText = withStore(p.merchant.bank, p.store);
    // Card payments book the same day or one or two days later.
    const lag = chance(0.6) ? 0 : chance(0.75) ? 1 : 2;
    if (p.day >= syncedFrom) {
      synced.push({
        id: `s${p.id}`,
        purchase: p.id,
        date: dateOf(p.day + lag),
        amount: p.amount,
        currency: 'EUR',
        bankAccountId: p.account,
        // bank-a gives a clean merchant name for most card payments.
        names: [chance(0.7) ? p.merchant.name : bankText, chance(0.7) ? p.merchant.name : null, null, bankText],
      });
    }
    if (p.account === 'acc-1' && p.day < csvUntil) {
      // A statement's value date is the purchase's; one line in ten carries the card's number, not the store's.
      const text = chance(0.1) ? `${withStore(p.merchant.csv, '').replace(/\s+$/, '')} VISA 4871` : withStore(p.merchant.csv, p.store);
      csv.push({
        id: `c${p.id}`,
        purchase: p.id,
        date: dateOf(p.day),
        amount: p.amount,
        currency: 'EUR',
        bankAccountId: 'acc-1',
        names: [text, null, null],
      });
    }
    // Some purchases of the synced range were entered by hand first.
    if (p.day >= syncedFrom && chance(0.06)) {
      const off = chance(0.8) ? 0 : chance(0.75) ? pick([-1, 1]) : pick([-3, -2, 2, 3]);
      manual.push({
        id: `m${p.id}`,
        purchase: p.id,
        date: dateOf(p.day + off),
        amount: chance(0.01) ? cents(p.amount - 1) : p.amount,
        currency: 'EUR',
        bankAccountId: chance(0.7) ? null : p.account,
        names: [p.merchant.manual, null, null, null],
      });
    }
  }
  // Cash purchases entered by hand with no account: the bank never brings them, and nothing may take them.
  const cash = Math.floor(purchases * 0.005);
  for (let i = 0; i < cash; i++) {
    const m = merchantOf();
    manual.push({
      id: `k${i}`,
      purchase: -1 - i,
      date: dateOf(syncedFrom + Math.floor(rand() * (DAYS - syncedFrom))),
      amount: -priceOf(m),
      currency: 'EUR',
      bankAccountId: null,
      names: [m.manual, null, null, null],
    });
  }
  const lookOf = new Map(all.map((p) => [p.id, `${p.merchant.name}|${p.amount}|${p.day}`]));
  return { synced, csv, manual, lookOf, twins };
}

/** Whether two rows stand for the same purchase, or for purchases that look alike (either would do). */
export function samePurchase(set: DuplicateSet, a: LabelledRow, b: LabelledRow): boolean {
  if (a.purchase === b.purchase) return true;
  const look = set.lookOf.get(a.purchase);
  return look !== undefined && look === set.lookOf.get(b.purchase);
}
