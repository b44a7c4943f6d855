import { unitsRounder } from '../currencies/money';

/** Money is summed in ten-thousandths (numeric(19,4)) so 0.1 + 0.2 is 0.3, not 0.30000000000000004. */
const toUnits = (n: number) => Math.round(n * 10_000);
const fromUnits = (n: number) => n / 10_000;

export interface LineForTotals {
  quantity: number;
  price: number;
  vatRate?: number | null;
  taxRate?: number | null;
}

/** One line as it is printed: its amount (quantity × price), VAT and tax, each in the currency's minor unit. */
export function lineAmounts(line: LineForTotals, currency: string | null | undefined) {
  const { net, vat, tax } = lineUnits(line, unitsRounder(currency));
  return { net: fromUnits(net), vat: fromUnits(vat), tax: fromUnits(tax) };
}

function lineUnits(line: LineForTotals, round: (units: number) => number) {
  const net = round(toUnits(line.quantity * line.price));
  return { net, vat: round((net * (line.vatRate ?? 0)) / 100), tax: round((net * (line.taxRate ?? 0)) / 100) };
}

/**
 * Invoice totals from its lines, in the currency's minor unit (0 decimals for JPY, 3 for BHD): each
 * line's amount, VAT and tax are rounded as they are printed, and the sums are of what was printed.
 */
export function invoiceTotals(lines: LineForTotals[], discount: number, currency: string | null | undefined) {
  const round = unitsRounder(currency);
  let subtotal = 0;
  let vat = 0;
  let tax = 0;
  for (const line of lines) {
    const l = lineUnits(line, round);
    subtotal += l.net;
    vat += l.vat;
    tax += l.tax;
  }
  const off = round(toUnits(discount));
  const amount = subtotal + vat + tax - off;
  return { subtotal: fromUnits(subtotal), vat: fromUnits(vat), tax: fromUnits(tax), discount: fromUnits(off), amount: fromUnits(amount) };
}
