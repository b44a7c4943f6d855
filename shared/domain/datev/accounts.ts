import type { Db } from '../../db/knex';
import { BankAccount, Category, DatevAccount, DatevSettings } from '../../db/models';

/**
 * SKR03 accounts for the default categories (categories/defaults.ts), a starting point the team's
 * accountant adjusts with PUT /datev/account-mapping. None is an automatic VAT account, so the
 * export's tax key (BU-Schlüssel) says which VAT applies.
 */
export const SKR03_CATEGORY_ACCOUNTS: Readonly<Record<string, string>> = {
  revenue: '8200', // Erlöse
  'interest-income': '2650', // Sonstige Zinsen und ähnliche Erträge
  'office-supplies': '4930', // Bürobedarf
  software: '4806', // Wartungskosten für Hard- und Software
  equipment: '4855', // Sofortabschreibung geringwertiger Wirtschaftsgüter
  rent: '4210', // Miete
  travel: '4670', // Reisekosten Unternehmer
  'public-transport': '4673', // Reisekosten Unternehmer, Fahrtkosten
  accommodation: '4676', // Reisekosten Unternehmer, Übernachtungsaufwand
  meals: '4650', // Bewirtungskosten
  'books-and-subscriptions': '4940', // Zeitschriften, Bücher
  marketing: '4600', // Werbekosten
  'professional-services': '4950', // Rechts- und Beratungskosten
  telecommunications: '4920', // Telefon
  insurance: '4360', // Versicherungen
  'bank-fees': '4970', // Nebenkosten des Geldverkehrs
  salaries: '4120', // Gehälter
};
/** Bank (every bank account, unless mapped). */
export const SKR03_BANK_ACCOUNT = '1200';
/** Geldtransit: both sides of a transfer between the team's own accounts book against it, so it nets to nothing. */
export const SKR03_TRANSIT_ACCOUNT = '1360';
/** Where a booking without a mapped account goes, for the accountant to sort out. */
export const SKR03_SUSPENSE_ACCOUNT = '1590';

/**
 * BU-Schlüssel for a VAT rate: input VAT on an expense (9 at 19 %, 8 at 7 %), output VAT on income
 * (3 at 19 %, 2 at 7 %). Other rates have no general key in SKR03 and are left for the accountant.
 */
export function taxKeyOf(rate: number | null, side: 'income' | 'expense'): string | null {
  if (rate === 19) return side === 'income' ? '3' : '9';
  if (rate === 7) return side === 'income' ? '2' : '8';
  return null;
}

/** SKR03's four digits widened to the team's account length, as DATEV does: 1200 is 12000 with five. */
export const widen = (account: string, length: number) => (account.length >= length ? account : account.padEnd(length, '0'));

export interface AccountPlan {
  consultantNumber: number | null;
  clientNumber: number | null;
  accountLength: number;
  suspenseAccount: string;
  transitAccount: string;
  /** The account a category books to: mapped, else SKR03's for a default slug, else the suspense account. */
  category(slug: string | null | undefined): { account: string; source: 'team' | 'skr03' | 'suspense' };
  bankAccount(id: string | null | undefined): { account: string; source: 'team' | 'skr03' };
  /** The category's VAT rate, for a transaction that carries none. */
  categoryRate(slug: string | null | undefined): number | null;
}

export async function accountPlanOf(db: Db, teamId: string): Promise<AccountPlan> {
  const [settings, mapped, categories] = await Promise.all([
    DatevSettings.query(db).findOne({ teamId }),
    DatevAccount.query(db).where({ teamId }),
    Category.query(db).where({ teamId }).select('slug', 'taxRate'),
  ]);
  const accountLength = settings?.accountLength ?? 4;
  const byCategory = new Map(mapped.filter((m) => m.categorySlug).map((m) => [m.categorySlug, m.account]));
  const byBank = new Map(mapped.filter((m) => m.bankAccountId).map((m) => [m.bankAccountId, m.account]));
  const rates = new Map(categories.map((c) => [c.slug, c.taxRate]));
  const suspenseAccount = settings?.suspenseAccount ?? widen(SKR03_SUSPENSE_ACCOUNT, accountLength);
  return {
    consultantNumber: settings?.consultantNumber ?? null,
    clientNumber: settings?.clientNumber ?? null,
    accountLength,
    suspenseAccount,
    transitAccount: widen(SKR03_TRANSIT_ACCOUNT, accountLength),
    category(slug) {
      const own = slug ? byCategory.get(slug) : undefined;
      if (own) return { account: own, source: 'team' };
      const skr = slug ? SKR03_CATEGORY_ACCOUNTS[slug] : undefined;
      return skr ? { account: widen(skr, accountLength), source: 'skr03' } : { account: suspenseAccount, source: 'suspense' };
    },
    bankAccount(id) {
      const own = id ? byBank.get(id) : undefined;
      return own ? { account: own, source: 'team' } : { account: widen(SKR03_BANK_ACCOUNT, accountLength), source: 'skr03' };
    },
    categoryRate: (slug) => (slug ? (rates.get(slug) ?? null) : null),
  };
}

/** The team's bank accounts, for the mapping's listing. */
export const bankAccountsOf = (db: Db, teamId: string) =>
  BankAccount.query(db)
    .where({ teamId })
    .select('id', 'name')
    .orderBy([{ column: 'name' }, { column: 'id' }]);
