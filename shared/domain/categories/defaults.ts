import type { Db } from '../../db/knex';
import { Category } from '../../db/models';

/**
 * The category tree a new team starts with, each with the VAT rate its purchases or sales usually
 * carry, so the VAT report adds up input and output VAT without hand edits. `rate` names a rate of the
 * team's country (VAT_RATES); `exempt` is 0 % (insurance, bank fees: no VAT to reclaim), `none` leaves
 * the rate empty (wages, taxes: outside VAT). The same slugs carry the SKR03 accounts of the DATEV
 * export (datev/accounts.ts).
 */
type RateClass = 'standard' | 'reduced' | 'exempt' | 'none';
interface DefaultCategory {
  slug: string;
  name: string;
  parent?: string;
  rate: RateClass;
  excluded?: boolean;
}

export const DEFAULT_CATEGORIES: readonly DefaultCategory[] = [
  { slug: 'income', name: 'Income', rate: 'none' },
  { slug: 'revenue', name: 'Revenue', parent: 'income', rate: 'standard' },
  { slug: 'interest-income', name: 'Interest income', parent: 'income', rate: 'none' },
  { slug: 'expenses', name: 'Expenses', rate: 'none' },
  { slug: 'office-supplies', name: 'Office supplies', parent: 'expenses', rate: 'standard' },
  { slug: 'software', name: 'Software', parent: 'expenses', rate: 'standard' },
  { slug: 'equipment', name: 'Equipment', parent: 'expenses', rate: 'standard' },
  { slug: 'rent', name: 'Rent', parent: 'expenses', rate: 'none' },
  { slug: 'travel', name: 'Travel', parent: 'expenses', rate: 'standard' },
  { slug: 'public-transport', name: 'Public transport', parent: 'travel', rate: 'reduced' },
  { slug: 'accommodation', name: 'Accommodation', parent: 'travel', rate: 'reduced' },
  { slug: 'meals', name: 'Meals and entertainment', parent: 'expenses', rate: 'standard' },
  { slug: 'books-and-subscriptions', name: 'Books and subscriptions', parent: 'expenses', rate: 'reduced' },
  { slug: 'marketing', name: 'Marketing', parent: 'expenses', rate: 'standard' },
  { slug: 'professional-services', name: 'Professional services', parent: 'expenses', rate: 'standard' },
  { slug: 'telecommunications', name: 'Telecommunications', parent: 'expenses', rate: 'standard' },
  { slug: 'insurance', name: 'Insurance', parent: 'expenses', rate: 'exempt' },
  { slug: 'bank-fees', name: 'Bank fees', parent: 'expenses', rate: 'exempt' },
  { slug: 'salaries', name: 'Salaries', parent: 'expenses', rate: 'none' },
  { slug: 'taxes', name: 'Taxes', rate: 'none', excluded: true },
];

/**
 * Standard and reduced VAT rates in percent by country (ISO 3166 alpha-2), as of 2026. A team without a
 * country takes Germany's (the DATEV export and the SKR03 accounts are German too); a country not
 * listed gets its categories without rates, for the team to fill in.
 */
export const VAT_RATES: Readonly<Record<string, { standard: number; reduced: number }>> = {
  DE: { standard: 19, reduced: 7 },
  AT: { standard: 20, reduced: 10 },
  FR: { standard: 20, reduced: 5.5 },
  NL: { standard: 21, reduced: 9 },
  BE: { standard: 21, reduced: 6 },
  LU: { standard: 17, reduced: 8 },
  IT: { standard: 22, reduced: 10 },
  ES: { standard: 21, reduced: 10 },
  IE: { standard: 23, reduced: 13.5 },
  CH: { standard: 8.1, reduced: 2.6 },
};
const DEFAULT_COUNTRY = 'DE';

function rateOf(rate: RateClass, country: string | null | undefined): { taxRate: number | null; taxType: string | null } {
  if (rate === 'none') return { taxRate: null, taxType: null };
  if (rate === 'exempt') return { taxRate: 0, taxType: 'exempt' };
  const rates = VAT_RATES[(country ?? DEFAULT_COUNTRY).toUpperCase()] as { standard: number; reduced: number } | undefined;
  return rates ? { taxRate: rates[rate], taxType: 'vat' } : { taxRate: null, taxType: null };
}

/** Creates the default tree in a team just created, in the caller's transaction. */
export async function createDefaultCategories(db: Db, teamId: string, countryCode: string | null | undefined): Promise<void> {
  const ids = new Map<string, string>();
  // Parents come before their children in the list, so each child finds its parent's id.
  for (const c of DEFAULT_CATEGORIES) {
    const row = await Category.query(db)
      .insert({
        teamId,
        name: c.name,
        slug: c.slug,
        parentId: c.parent ? (ids.get(c.parent) ?? null) : null,
        system: true,
        excluded: c.excluded ?? false,
        ...rateOf(c.rate, countryCode),
      })
      .returning('id');
    ids.set(c.slug, row.id);
  }
}
