import { minorUnitsOf } from '../../currencies/money';
import { RefusedEInvoiceError } from './safe-xml';

export type { ReceivedEInvoice, ReceivedFormat, ReceivedLine, ReceivedVat } from '../../../db/models';
import type { ReceivedEInvoice } from '../../../db/models';

/** A decimal as written in the XML to the currency's minor units, exactly; more digits than the currency has is refused. */
export function minorUnits(value: string | null, currency: string, what: string): number {
  if (value === null) throw new RefusedEInvoiceError(`${what} is missing`);
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(value.trim());
  if (!m) throw new RefusedEInvoiceError(`${what} is not an amount: "${value.slice(0, 40)}"`);
  const digits = minorUnitsOf(currency);
  const fraction = (m[3] || '').replace(/0+$/, '');
  if (fraction.length > digits) throw new RefusedEInvoiceError(`${what} ${value} has more decimals than ${currency} has`);
  const units = Number(m[2] + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(units)) throw new RefusedEInvoiceError(`${what} ${value} is too large`);
  return m[1] === '-' && units !== 0 ? -units : units;
}

/** An optional amount: 0 when the element is absent. */
export const optionalMinorUnits = (value: string | null, currency: string, what: string) =>
  value === null ? 0 : minorUnits(value, currency, what);

export function percent(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** An ISO date from YYYY-MM-DD or CII's format 102 (YYYYMMDD); null for anything else. */
export function isoDateOf(value: string | null): string | null {
  if (!value) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const iso = `${m[1]}-${m[2]}-${m[3]}`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

const money = (units: number, currency: string) => {
  const digits = minorUnitsOf(currency);
  const sign = units < 0 ? '-' : '';
  const abs = String(Math.abs(units)).padStart(digits + 1, '0');
  return `${sign}${digits ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs}`;
};

/**
 * The sums EN 16931 requires to hold (BR-CO-10 to BR-CO-16): a document whose totals disagree with
 * its lines or with each other was forged or broken, and paying what it asks would pay the wrong
 * amount. Every disagreement is named.
 */
export function checkTotals(inv: ReceivedEInvoice): void {
  const c = inv.currency;
  const t = inv.totals;
  const problems: string[] = [];
  const lineSum = inv.lines.reduce((s, l) => s + l.net, 0);
  if (lineSum !== t.lines) problems.push(`the sum of line nets ${money(lineSum, c)} is not the net total ${money(t.lines, c)} (BR-CO-10)`);
  if (t.lines - t.allowances + t.charges !== t.net)
    problems.push(
      `the net total ${money(t.lines, c)} less allowances ${money(t.allowances, c)} plus charges ${money(t.charges, c)} is not the tax-exclusive amount ${money(t.net, c)} (BR-CO-13)`,
    );
  if (t.net + t.tax !== t.gross)
    problems.push(`net ${money(t.net, c)} + tax ${money(t.tax, c)} is not the gross total ${money(t.gross, c)} (BR-CO-15)`);
  const vatSum = inv.vatBreakdown.reduce((s, b) => s + b.vat, 0);
  if (inv.vatBreakdown.length && vatSum !== t.tax)
    problems.push(`the VAT breakdown sums to ${money(vatSum, c)}, not the tax total ${money(t.tax, c)} (BR-CO-14)`);
  const baseSum = inv.vatBreakdown.reduce((s, b) => s + b.base, 0);
  if (inv.vatBreakdown.length && baseSum !== t.net)
    problems.push(`the VAT breakdown's bases sum to ${money(baseSum, c)}, not the tax-exclusive amount ${money(t.net, c)}`);
  if (t.gross - t.prepaid + t.rounding !== t.payable)
    problems.push(
      `gross ${money(t.gross, c)} less prepaid ${money(t.prepaid, c)} plus rounding ${money(t.rounding, c)} is not the amount payable ${money(t.payable, c)} (BR-CO-16)`,
    );
  if (problems.length) throw new RefusedEInvoiceError(`the totals disagree: ${problems.join('; ')}`);
}

/** What an e-invoice must say for anyone to book or pay it; a document without it is refused, naming what is missing. */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined || value === '') throw new RefusedEInvoiceError(`${what} is missing`);
  return value;
}
