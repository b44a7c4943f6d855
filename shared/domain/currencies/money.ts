import { CURRENCIES } from './iso-4217';

const MINOR_UNITS = new Map<string, number>(CURRENCIES.map((c) => [c.code, c.minorUnits]));

/**
 * The decimal digits an amount in `currency` is written with (ISO 4217): 2 for EUR, 0 for JPY, 3 for
 * BHD. A code the table does not hold, or no currency at all, counts as 2, as most currencies have.
 */
export function minorUnitsOf(currency: string | null | undefined): number {
  return (currency ? MINOR_UNITS.get(currency.trim().toUpperCase()) : undefined) ?? 2;
}

/**
 * A rounder of ten-thousandths (the precision money is stored with, numeric(19,4)) to the currency's
 * minor unit, half away from zero so an expense or a credit line rounds as the income of the same size.
 */
export function unitsRounder(currency: string | null | undefined): (units: number) => number {
  const step = 10 ** (4 - Math.min(4, minorUnitsOf(currency)));
  return (units) => {
    const rounded = Math.round(Math.abs(units) / step) * step;
    return rounded === 0 ? 0 : Math.sign(units) * rounded;
  };
}

/**
 * `amount` rounded to its currency's minor unit. It is first taken to ten-thousandths, so a float just
 * below a half (1.005 is 1.00499… in binary) rounds as the decimal it stands for.
 */
export function roundMoney(amount: number, currency: string | null | undefined): number {
  const units = Math.sign(amount) * Math.round(Math.abs(amount) * 10_000);
  return unitsRounder(currency)(units) / 10_000;
}

/** roundMoney for one currency, for code that rounds many figures in it. */
export const moneyRounder =
  (currency: string | null | undefined) =>
  (amount: number): number =>
    roundMoney(amount, currency);

/**
 * Money for people to read, in the currency's own digits whatever the locale's habit (Intl has its
 * own idea for a few currencies, such as 0 digits for IQD, which ISO writes with 3). `price`: a unit
 * price, which keeps the decimals it has (up to the four stored) beyond the currency's.
 */
export function formatMoney(amount: number, currency: string, locale = 'en-US', opts: { price?: boolean } = {}): string {
  return moneyFormat(currency, locale, opts.price ?? false)(amount);
}

/** Formatters by locale, currency and kind: making an Intl.NumberFormat costs far more than using one. */
const moneyFormats = new Map<string, (amount: number) => string>();
const MONEY_FORMATS_KEPT = 1000;

function moneyFormat(currency: string, locale: string, price: boolean): (amount: number) => string {
  const key = `${locale} ${currency} ${price}`;
  let format = moneyFormats.get(key);
  if (format) return format;
  const digits = minorUnitsOf(currency);
  const options = { minimumFractionDigits: digits, maximumFractionDigits: price ? Math.max(digits, 4) : digits };
  try {
    const intl = new Intl.NumberFormat(locale, { style: 'currency', currency, ...options });
    format = (amount) => intl.format(amount);
  } catch {
    // A code Intl does not take: the figure and the code.
    const intl = new Intl.NumberFormat(locale, options);
    format = (amount) => `${intl.format(amount)} ${currency}`;
  }
  if (moneyFormats.size >= MONEY_FORMATS_KEPT) moneyFormats.clear();
  moneyFormats.set(key, format);
  return format;
}

/** 1,234.50 EUR: the figure in the currency's digits, then its code (the chat's and messages' form). */
export function formatAmountWithCode(amount: number, currency: string | null): string {
  const digits = minorUnitsOf(currency);
  const figure = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
  return currency ? `${figure} ${currency}` : figure;
}

/**
 * SQL for the minor units of a currency column: the table's currencies not written with cents by
 * code, every other one 2. The codes come from the table, never from a request.
 */
export function minorUnitsSql(column: string): string {
  const others = CURRENCIES.filter((c) => c.minorUnits !== 2).map((c) => `when '${c.code}' then ${c.minorUnits}`);
  return `(case ${column} ${others.join(' ')} else 2 end)`;
}
