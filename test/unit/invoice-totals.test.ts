import { invoiceTotals, lineAmounts } from '../../shared/domain/invoices/totals';

describe('invoiceTotals', () => {
  it('sums exactly in ten-thousandths', () => {
    expect(
      invoiceTotals(
        [
          { quantity: 1, price: 0.1 },
          { quantity: 1, price: 0.2 },
        ],
        0,
        'EUR',
      ),
    ).toMatchObject({ subtotal: 0.3, amount: 0.3 });
  });

  it("rounds each line's VAT and tax to the cent and subtracts the discount", () => {
    const t = invoiceTotals(
      [
        { quantity: 3, price: 19.99, vatRate: 19 }, // 59.97 net, VAT 11.3943 → 11.39
        { quantity: 0.5, price: 120, vatRate: 7, taxRate: 2.5 }, // 60 net, VAT 4.20, tax 1.50
      ],
      10,
      'EUR',
    );
    expect(t).toEqual({ subtotal: 119.97, vat: 15.59, tax: 1.5, discount: 10, amount: 127.06 });
  });

  it("rounds each line's amount as it is printed: to the cent in EUR", () => {
    // 1.5 hours at 33.33 is 49.995: printed 50.00, so the subtotal is 50.00 and not 49.995.
    expect(invoiceTotals([{ quantity: 1.5, price: 33.33 }], 0, 'EUR')).toMatchObject({ subtotal: 50, amount: 50 });
  });

  it('totals in whole yen for JPY and in fils (three decimals) for BHD', () => {
    expect(invoiceTotals([{ quantity: 3, price: 333.33, vatRate: 10 }], 0.4, 'JPY')).toEqual({
      subtotal: 1000, // 999.99 on the line, printed ¥1,000
      vat: 100,
      tax: 0,
      discount: 0,
      amount: 1100,
    });
    expect(invoiceTotals([{ quantity: 3, price: 1.2345, vatRate: 10 }], 0.0004, 'BHD')).toEqual({
      subtotal: 3.704, // 3.7035
      vat: 0.37, // 0.3704
      tax: 0,
      discount: 0,
      amount: 4.074,
    });
  });

  it('rounds a credit line as the charge of the same size, and keeps four decimals for CLF', () => {
    expect(lineAmounts({ quantity: 1, price: -0.125 }, 'EUR').net).toBe(-0.13);
    expect(lineAmounts({ quantity: 1, price: 0.125 }, 'EUR').net).toBe(0.13);
    expect(invoiceTotals([{ quantity: 3, price: 1.2345 }], 0, 'CLF').subtotal).toBe(3.7035);
  });
});
