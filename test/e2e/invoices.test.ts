import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();


describe('invoices', () => {
  it('goes draft → unpaid → paid with computed totals and numbers', async () => {
    const customer = (await (await send('POST', '/customers', ctx.acme.sessionToken, { name: 'Northwind' })).json()).data;
    const res = await send('POST', '/invoices', ctx.acme.sessionToken, {
      customerId: customer.id,
      currency: 'EUR',
      lineItems: [{ name: 'Consulting', quantity: 10, price: 150, vatRate: 19 }],
      discount: 100,
    });
    expect(res.status).toBe(201);
    const draft = (await res.json()).data;
    expect(draft).toMatchObject({ invoiceNumber: 'INV-0001', status: 'draft', subtotal: 1500, vat: 285, amount: 1685, customer: { id: customer.id, name: 'Northwind' } });
    expect(draft.lineItems).toEqual([{ name: 'Consulting', quantity: 10, unit: null, price: 150, vatRate: 19, taxRate: null }]);

    const second = (await (await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'EUR', lineItems: [{ name: 'x', price: 1 }] })).json()).data;
    expect(second.invoiceNumber).toBe('INV-0002');
    expect((await send('POST', '/invoices', ctx.acme.sessionToken, { invoiceNumber: 'INV-0002', currency: 'EUR', lineItems: [{ name: 'x', price: 1 }] })).status).toBe(409);

    const edited = (await (await send('PATCH', `/invoices/${draft.id}`, ctx.acme.sessionToken, { lineItems: [{ name: 'Consulting', quantity: 12, price: 150, vatRate: 19 }] })).json()).data;
    expect(edited).toMatchObject({ subtotal: 1800, vat: 342, discount: 100, amount: 2042 });

    const issued = (await (await send('POST', `/invoices/${draft.id}/finalize`, ctx.acme.sessionToken)).json()).data;
    expect(issued.status).toBe('unpaid');
    expect(issued.issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(issued.dueDate).getTime() - new Date(issued.issueDate).getTime()).toBe(30 * 86_400_000);

    expect((await send('PATCH', `/invoices/${draft.id}`, ctx.acme.sessionToken, { note: 'too late' })).status).toBe(409);
    expect((await send('DELETE', `/invoices/${draft.id}`, ctx.acme.sessionToken)).status).toBe(409);

    const paid = (await (await send('POST', `/invoices/${draft.id}/mark-paid`, ctx.acme.sessionToken, { paymentReference: 'SEPA-42' })).json()).data;
    expect(paid).toMatchObject({ status: 'paid', paymentReference: 'SEPA-42' });
    expect(paid.paidAt).toBeTruthy();
    const again = await send('POST', `/invoices/${draft.id}/cancel`, ctx.acme.sessionToken);
    expect(again.status).toBe(409);
    expect((await again.json()).description).toBe('Cannot cancel an invoice that is paid');
  });

  it('refuses a foreign customer and invalid lines, and keeps teams apart', async () => {
    const theirs = (await (await send('POST', '/customers', ctx.other.sessionToken, { name: 'Theirs' })).json()).data;
    const bad = await send('POST', '/invoices', ctx.acme.sessionToken, { customerId: theirs.id, currency: 'EUR', lineItems: [{ name: 'x', price: 1 }] });
    expect(bad.status).toBe(400);
    const empty = await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'EUR', lineItems: [] });
    expect((await empty.json()).details[0].field).toBe('lineItems');
    const list = (await (await send('GET', '/invoices', ctx.other.sessionToken)).json()).data;
    expect(list).toEqual([]);
  });

  it('cancels and deletes a draft; lists by status', async () => {
    const draft = (await (await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'USD', lineItems: [{ name: 'y', price: 5 }] })).json()).data;
    const canceled = (await (await send('POST', `/invoices/${draft.id}/cancel`, ctx.acme.sessionToken)).json()).data;
    expect(canceled.status).toBe('canceled');
    const byStatus = (await (await send('GET', '/invoices?statuses=canceled', ctx.acme.sessionToken)).json()).data;
    expect(byStatus.map((i: any) => i.id)).toEqual([draft.id]);
    expect((await send('DELETE', `/invoices/${draft.id}`, ctx.acme.sessionToken)).status).toBe(204);
  });
});
