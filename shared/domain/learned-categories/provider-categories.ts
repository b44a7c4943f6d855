/**
 * The banks' own categories mapped onto the default category tree (categories/defaults.ts), the
 * last resort for a new transaction no rule and no learned neighbour categorised. bank-a sends its
 * personal_finance_category's primary (upper case), bank-b its details.category (lower case); both
 * are looked up upper-cased. A category with no good counterpart (transfers, loans) maps to nothing:
 * a wrong category is worse than none. A team that deleted the slug gets nothing either.
 */
export const PROVIDER_CATEGORY_SLUGS: Readonly<Record<string, string>> = {
  // bank-a
  INCOME: 'revenue',
  BANK_FEES: 'bank-fees',
  ENTERTAINMENT: 'meals',
  FOOD_AND_DRINK: 'meals',
  GENERAL_MERCHANDISE: 'office-supplies',
  GENERAL_SERVICES: 'professional-services',
  GOVERNMENT_AND_NON_PROFIT: 'taxes',
  TRANSPORTATION: 'travel',
  TRAVEL: 'travel',
  RENT_AND_UTILITIES: 'rent',
  // bank-b
  ACCOMMODATION: 'accommodation',
  ADVERTISING: 'marketing',
  DINING: 'meals',
  BAR: 'meals',
  ELECTRONICS: 'equipment',
  FUEL: 'travel',
  INSURANCE: 'insurance',
  OFFICE: 'office-supplies',
  PHONE: 'telecommunications',
  SOFTWARE: 'software',
  TAX: 'taxes',
  TRANSPORT: 'public-transport',
  UTILITIES: 'rent',
};

/** The default slug a bank's category stands for, or null. */
export function providerCategorySlug(providerCategory: string | null): string | null {
  return providerCategory ? (PROVIDER_CATEGORY_SLUGS[providerCategory.trim().toUpperCase()] ?? null) : null;
}
