import { invoiceTotals } from '../../shared/domain/invoices/totals';

describe('invoiceTotals', () => {
  it('sums exactly in ten-thousandths', () => {
    expect(
      invoiceTotals([
        { quantity: 1, price: 0.1 },
        { quantity: 1, price: 0.2 },
      ]),
    ).toMatchObject({ subtotal: 0.3, amount: 0.3 });
  });

  it("rounds each line's VAT and tax to the cent and subtracts the discount", () => {
    const t = invoiceTotals(
      [
        { quantity: 3, price: 19.99, vatRate: 19 }, // 59.97 net, VAT 11.3943 → 11.39
        { quantity: 0.5, price: 120, vatRate: 7, taxRate: 2.5 }, // 60 net, VAT 4.20, tax 1.50
      ],
      10,
    );
    expect(t).toEqual({ subtotal: 119.97, vat: 15.59, tax: 1.5, discount: 10, amount: 127.06 });
  });
});
