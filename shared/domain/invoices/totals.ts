/** Money is summed in ten-thousandths (numeric(19,4)) so 0.1 + 0.2 is 0.3, not 0.30000000000000004. */
const toUnits = (n: number) => Math.round(n * 10_000);
const fromUnits = (n: number) => n / 10_000;

export interface LineForTotals {
  quantity: number;
  price: number;
  vatRate?: number | null;
  taxRate?: number | null;
}

/** Invoice totals from its lines: each line's tax is rounded to the cent, as it is printed. */
export function invoiceTotals(lines: LineForTotals[], discount = 0) {
  let subtotal = 0;
  let vat = 0;
  let tax = 0;
  for (const line of lines) {
    const net = toUnits(line.quantity * line.price);
    subtotal += net;
    vat += Math.round((net * (line.vatRate ?? 0)) / 100 / 100) * 100;
    tax += Math.round((net * (line.taxRate ?? 0)) / 100 / 100) * 100;
  }
  const amount = subtotal + vat + tax - toUnits(discount);
  return { subtotal: fromUnits(subtotal), vat: fromUnits(vat), tax: fromUnits(tax), discount, amount: fromUnits(amount) };
}
