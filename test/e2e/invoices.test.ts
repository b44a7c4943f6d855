import { invoiceSchema } from '../../shared/domain/invoices/schema';
import { pdfText } from '../../shared/domain/receipts/pdf-text';
import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
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
    // Numbered when issued: a draft has no number yet.
    expect(draft).toMatchObject({
      invoiceNumber: null,
      status: 'draft',
      subtotal: 1500,
      vat: 285,
      amount: 1685,
      customer: { id: customer.id, name: 'Northwind' },
    });
    expect(draft.lineItems).toEqual([{ name: 'Consulting', quantity: 10, unit: null, price: 150, vatRate: 19, taxRate: null }]);
    // Exactly the documented fields: no internal column (team, creator, cursor key) leaks into the answer.
    // (`lifecycle` is the one field only GET /invoices/:id carries: it asks the workflow.)
    expect(Object.keys(draft).sort()).toEqual(
      Object.keys(invoiceSchema.shape)
        .filter((k) => k !== 'lifecycle')
        .sort(),
    );

    const second = (
      await (
        await send('POST', '/invoices', ctx.acme.sessionToken, {
          invoiceNumber: 'OLD-7',
          currency: 'EUR',
          lineItems: [{ name: 'x', price: 1 }],
        })
      ).json()
    ).data;
    expect(second.invoiceNumber).toBe('OLD-7');
    expect(
      (
        await send('POST', '/invoices', ctx.acme.sessionToken, {
          invoiceNumber: 'OLD-7',
          currency: 'EUR',
          lineItems: [{ name: 'x', price: 1 }],
        })
      ).status,
    ).toBe(409);

    const edited = (
      await (
        await send('PATCH', `/invoices/${draft.id}`, ctx.acme.sessionToken, {
          lineItems: [{ name: 'Consulting', quantity: 12, price: 150, vatRate: 19 }],
        })
      ).json()
    ).data;
    expect(edited).toMatchObject({ subtotal: 1800, vat: 342, discount: 100, amount: 2042 });

    const issued = (await (await send('POST', `/invoices/${draft.id}/finalize`, ctx.acme.sessionToken)).json()).data;
    expect(issued.status).toBe('unpaid');
    expect(issued.invoiceNumber).toBe('INV-0001');
    expect(issued.issueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(issued.dueDate).getTime() - new Date(issued.issueDate).getTime()).toBe(30 * 86_400_000);

    const late = await send('PATCH', `/invoices/${draft.id}`, ctx.acme.sessionToken, { note: 'too late' });
    expect(late.status).toBe(409);
    expect((await late.json()).details).toEqual([{ field: 'note', message: 'locked: the invoice is issued' }]);
    expect((await send('DELETE', `/invoices/${draft.id}`, ctx.acme.sessionToken)).status).toBe(409);

    const paid = (
      await (await send('POST', `/invoices/${draft.id}/mark-paid`, ctx.acme.sessionToken, { paymentReference: 'SEPA-42' })).json()
    ).data;
    expect(paid).toMatchObject({ status: 'paid', paymentReference: 'SEPA-42' });
    expect(paid.paidAt).toBeTruthy();
    const again = await send('POST', `/invoices/${draft.id}/cancel`, ctx.acme.sessionToken);
    expect(again.status).toBe(409);
    expect((await again.json()).description).toBe('Cannot cancel an invoice that is paid');
  });

  it("totals in the currency's minor unit: whole yen for JPY, fils for BHD, on the invoice, its payments and its PDF", async () => {
    const token = ctx.acme.sessionToken;
    const yen = (
      await (
        await send('POST', '/invoices', token, {
          currency: 'JPY',
          lineItems: [{ name: 'Translation', quantity: 3, price: 333.33, vatRate: 10 }],
        })
      ).json()
    ).data;
    // 3 × 333.33 is 999.99: printed ¥1,000, and every total is of what is printed.
    expect(yen).toMatchObject({ subtotal: 1000, vat: 100, tax: 0, amount: 1100, amountDue: 1100 });
    expect(yen.lineItems[0]).toMatchObject({ quantity: 3, price: 333.33 });
    const text = (await pdfText(Buffer.from(await (await ctx.api.fetch(`/invoices/${yen.id}/pdf`, { token })).arrayBuffer()))).replace(
      /\s+/g,
      ' ',
    );
    for (const expected of ['¥333.33', '¥1,000', '¥100', '¥1,100'])
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });
    expect(text).not.toMatch(/¥1,000\.00|¥999\.99/);

    // A payment is taken in whole yen too: ¥600.4 is ¥600, and ¥0.4 is nothing at all.
    await send('POST', `/invoices/${yen.id}/finalize`, token);
    const part = await send('POST', `/invoices/${yen.id}/payments`, token, { amount: 600.4 });
    expect(part.status).toBe(201);
    expect((await part.json()).data).toMatchObject({ status: 'unpaid', amountPaid: 600, amountDue: 500 });
    const dust = await send('POST', `/invoices/${yen.id}/payments`, token, { amount: 0.4 });
    expect(dust.status).toBe(400);
    expect((await dust.json()).details).toEqual([{ field: 'amount', message: 'rounds to 0 JPY' }]);
    const rest = await send('POST', `/invoices/${yen.id}/payments`, token, { amount: 500.3 });
    expect((await rest.json()).data).toMatchObject({ status: 'paid', amountPaid: 1100, amountDue: 0 });

    // Three decimals for the Bahraini dinar, also when a draft changes into it.
    const draft = (await (await send('POST', '/invoices', token, { currency: 'EUR', lineItems: [{ name: 'Audit', price: 1 }] })).json())
      .data;
    const dinar = await send('PATCH', `/invoices/${draft.id}`, token, {
      currency: 'BHD',
      lineItems: [{ name: 'Audit', quantity: 3, price: 1.2345, vatRate: 10 }],
      discount: 0.0004,
    });
    expect((await dinar.json()).data).toMatchObject({ currency: 'BHD', subtotal: 3.704, vat: 0.37, discount: 0, amount: 4.074 });
    const trpc = await trpcAs(ctx.api, token).invoices.getById.query({ id: draft.id });
    expect(trpc).toMatchObject({ subtotal: 3.704, amount: 4.074 });
  });

  it('refuses a foreign customer and invalid lines, and keeps teams apart', async () => {
    const theirs = (await (await send('POST', '/customers', ctx.other.sessionToken, { name: 'Theirs' })).json()).data;
    const bad = await send('POST', '/invoices', ctx.acme.sessionToken, {
      customerId: theirs.id,
      currency: 'EUR',
      lineItems: [{ name: 'x', price: 1 }],
    });
    expect(bad.status).toBe(400);
    const empty = await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'EUR', lineItems: [] });
    expect((await empty.json()).details[0].field).toBe('lineItems');
    const list = (await (await send('GET', '/invoices', ctx.other.sessionToken)).json()).data;
    expect(list).toEqual([]);
  });

  it('cancels and deletes a draft; lists by status', async () => {
    const draft = (
      await (await send('POST', '/invoices', ctx.acme.sessionToken, { currency: 'USD', lineItems: [{ name: 'y', price: 5 }] })).json()
    ).data;
    const canceled = (await (await send('POST', `/invoices/${draft.id}/cancel`, ctx.acme.sessionToken)).json()).data;
    expect(canceled.status).toBe('canceled');
    const byStatus = (await (await send('GET', '/invoices?statuses=canceled', ctx.acme.sessionToken)).json()).data;
    expect(byStatus.map((i: { id: string }) => i.id)).toEqual([draft.id]);
    expect((await send('DELETE', `/invoices/${draft.id}`, ctx.acme.sessionToken)).status).toBe(204);
  });
});

describe('invoices over tRPC', () => {
  it('creates, edits, lists, moves through the status machine and deletes, as REST does', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const customer = await trpc.customers.create.mutate({ name: 'Contoso' });
    const draft = await trpc.invoices.create.mutate({
      customerId: customer.id,
      currency: 'EUR',
      lineItems: [{ name: 'Design', quantity: 2, price: 400, vatRate: 19 }],
    });
    expect(draft).toMatchObject({ status: 'draft', subtotal: 800, vat: 152, amount: 952, customer: { id: customer.id, name: 'Contoso' } });
    expect(await trpc.invoices.getById.query({ id: draft.id })).toEqual({ ...draft, lifecycle: null });

    const edited = await trpc.invoices.update.mutate({ id: draft.id, data: { discount: 52, note: 'Thank you' } });
    expect(edited).toMatchObject({ discount: 52, amount: 900, note: 'Thank you', lineItems: draft.lineItems });
    const listed = await trpc.invoices.get.query({ customers: [customer.id] });
    expect(listed).toEqual({ data: [edited], meta: { cursor: null, hasNextPage: false } });

    const issued = await trpc.invoices.finalize.mutate({ id: draft.id });
    expect(issued).toMatchObject({ status: 'unpaid', issueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const paid = await trpc.invoices.markPaid.mutate({
      id: draft.id,
      data: { paidAt: '2026-07-01T10:00:00.000Z', paymentReference: 'WIRE-7' },
    });
    expect(paid).toMatchObject({ status: 'paid', paidAt: '2026-07-01T10:00:00.000Z', paymentReference: 'WIRE-7' });
    expect((await trpc.invoices.get.query({ statuses: ['paid'], q: 'contoso' })).data.map((i) => i.id)).toEqual([draft.id]);
    expect(await trpcError(trpc.invoices.cancel.mutate({ id: draft.id }))).toMatchObject({
      httpStatus: 409,
      description: 'Cannot cancel an invoice that is paid',
    });
    expect(await trpcError(trpc.invoices.delete.mutate({ id: draft.id }))).toMatchObject({
      httpStatus: 409,
      description: 'Only draft or canceled invoices can be deleted; this one is paid',
    });

    const scrap = await trpc.invoices.create.mutate({ currency: 'EUR', lineItems: [{ name: 'Scrap', price: 1 }] });
    await trpc.invoices.delete.mutate({ id: scrap.id });
    expect(await trpcError(trpc.invoices.getById.query({ id: scrap.id }))).toMatchObject({
      httpStatus: 404,
      description: `Invoice ${scrap.id} not found`,
    });
  });

  it("answers 404 for another team's invoice, 400 for invalid input and 403 without the scope", async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const draft = await trpc.invoices.create.mutate({ currency: 'USD', lineItems: [{ name: 'Ours', price: 10 }] });
    const other = trpcAs(ctx.api, ctx.other.sessionToken);
    for (const call of [
      other.invoices.getById.query({ id: draft.id }),
      other.invoices.update.mutate({ id: draft.id, data: { note: 'theirs now' } }),
      other.invoices.cancel.mutate({ id: draft.id }),
      // The deprecated one-procedure form answers as the action it names.
      other.invoices.transition.mutate({ id: draft.id, action: 'cancel' }),
      other.invoices.delete.mutate({ id: draft.id }),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 404, error: 'Not Found' });
    expect((await other.invoices.get.query({})).data).toEqual([]);
    expect((await trpc.invoices.getById.query({ id: draft.id })).status).toBe('draft');

    expect(await trpcError(trpc.invoices.create.mutate({ currency: 'USD', lineItems: [] }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'lineItems' })],
    });
    expect(await trpcError(trpc.invoices.update.mutate({ id: draft.id, data: { discount: 11 } }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'discount', message: 'larger than the total' }],
    });

    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['invoices.read']);
    const readOnly = trpcAs(ctx.api, reader);
    expect((await readOnly.invoices.getById.query({ id: draft.id })).id).toBe(draft.id);
    expect(await trpcError(readOnly.invoices.transition.mutate({ id: draft.id, action: 'finalize' }))).toMatchObject({
      httpStatus: 403,
      error: 'Forbidden',
    });
  });
});
