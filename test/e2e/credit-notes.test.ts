import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { changeInvoiceStatus, performInvoiceStep } from '../../shared/domain/invoices/lifecycle';
import { messageOf } from '../../shared/domain/notifications/messages';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { createMailer } from '../../shared/providers/mail';
import { createInvoice } from '../../shared/domain/invoices/service';
import { pdfText } from '../../shared/domain/receipts/pdf-text';
import { statusAndBody } from '../support/api';
import { createTeamAndOwner } from '../support/fixtures';
import { trpcAs } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
const send = (method: string, path: string, body?: unknown, token = ctx.acme.sessionToken) =>
  sendJson(method, path, token, body).then(statusAndBody);
const year = () => new Date().toISOString().slice(0, 4);

/** An issued invoice: 10 h consulting at 150 + 19 % VAT, and a 50 € licence at 7 %, less a 100 € discount: 1,738.50 €. */
async function issued(token = ctx.acme.sessionToken) {
  const customer = (await send('POST', '/customers', { name: 'Northwind', billingEmail: 'ap@northwind.example' }, token)).body.data;
  const draft = await send(
    'POST',
    '/invoices',
    {
      customerId: customer.id,
      currency: 'EUR',
      discount: 100,
      lineItems: [
        { name: 'Consulting', quantity: 10, unit: 'h', price: 150, vatRate: 19 },
        { name: 'Licence', quantity: 1, price: 50, vatRate: 7 },
      ],
    },
    token,
  );
  expect(draft.status).toBe(201);
  const finalized = await send('POST', `/invoices/${draft.body.data.id}/finalize`, undefined, token);
  expect(finalized.status).toBe(200);
  return finalized.body.data as { id: string; invoiceNumber: string; amount: number; dueDate: string };
}

describe('issued invoices are locked; credit notes correct them', () => {
  it('finalize → edit 409 and nothing changed → partial credit → the full remainder → nothing more', async () => {
    const invoice = await issued();
    expect(invoice.amount).toBe(1738.5);

    const edit = await send('PATCH', `/invoices/${invoice.id}`, {
      lineItems: [{ name: 'Consulting', price: 1 }],
      discount: 0,
      dueDate: '2030-01-01',
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error).toBe('Conflict');
    expect(edit.body.description).toContain(
      `Invoice ${invoice.invoiceNumber} is issued (unpaid) and locked: lineItems, discount, dueDate cannot change`,
    );
    expect(edit.body.details.map((d: { field: string }) => d.field)).toEqual(['lineItems', 'discount', 'dueDate']);
    const after = (await send('GET', `/invoices/${invoice.id}`)).body.data;
    expect(after).toMatchObject({
      amount: 1738.5,
      discount: 100,
      dueDate: invoice.dueDate,
      invoiceNumber: invoice.invoiceNumber,
    });
    expect(after.lineItems).toHaveLength(2);
    expect(after.lineItems[0]).toMatchObject({ name: 'Consulting', quantity: 10, price: 150 });

    // Two hours of consulting back: 300 + 57 VAT.
    const partial = await send('POST', `/invoices/${invoice.id}/credit-notes`, {
      lineItems: [{ line: 0, quantity: 2 }],
      reason: 'Two hours billed twice',
    });
    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({
      creditNoteNumber: `CN-${year()}-0001`,
      typeCode: '381',
      invoice: { id: invoice.id, invoiceNumber: invoice.invoiceNumber },
      subtotal: 300,
      vat: 57,
      discount: 0,
      amount: 357,
      reason: 'Two hours billed twice',
      lineItems: [{ line: 0, name: 'Consulting', quantity: 2, unit: 'h', price: 150, vatRate: 19, amount: 300 }],
    });
    expect((await send('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({
      status: 'unpaid',
      amountCredited: 357,
      amountDue: 1381.5,
    });

    // More than the line has left, a line the invoice lacks, a line twice: 400, and nothing issued.
    const tooMuch = await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 0, amount: 1200.01 }] });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.details).toEqual([{ field: 'lineItems.0', message: 'at most 1200 EUR (net) is left to credit on line 0' }]);
    expect((await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 2 }] })).status).toBe(400);
    expect((await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 1 }, { line: 1 }] })).status).toBe(400);
    expect((await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 1, quantity: 1, amount: 1 }] })).status).toBe(
      400,
    );

    // The rest, the discount given back: everything credited to the cent, and the unpaid invoice closes.
    const rest = await send('POST', `/invoices/${invoice.id}/credit-notes`, {});
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({
      creditNoteNumber: `CN-${year()}-0002`,
      subtotal: 1250,
      vat: 231.5,
      discount: 100,
      amount: 1381.5,
    });
    expect(rest.body.data.lineItems).toEqual([
      { line: 0, name: 'Consulting', quantity: 1, unit: null, price: 1200, vatRate: 19, taxRate: null, amount: 1200 },
      { line: 1, name: 'Licence', quantity: 1, unit: null, price: 50, vatRate: 7, taxRate: null, amount: 50 },
    ]);
    expect((await send('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({
      status: 'canceled',
      amountCredited: 1738.5,
      amountDue: 0,
    });

    const more = await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 1, amount: 1 }] });
    expect(more.status).toBe(409);
    expect(
      (await send('GET', `/invoices/${invoice.id}/credit-notes`)).body.data.map((n: { creditNoteNumber: string }) => n.creditNoteNumber),
    ).toEqual([`CN-${year()}-0001`, `CN-${year()}-0002`]);
    // The invoice and its credit notes are part of the books.
    expect((await send('DELETE', `/invoices/${invoice.id}`)).status).toBe(409);

    // Both doors: the team's list, one note by id over tRPC.
    const listed = await send('GET', `/invoices/credit-notes?invoiceId=${invoice.id}&pageSize=1`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.meta.hasNextPage).toBe(true);
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    expect(await trpc.invoices.getCreditNoteById.query({ id: partial.body.data.id })).toMatchObject({ amount: 357 });
    expect((await trpc.invoices.getCreditNotes.query({})).data.length).toBeGreaterThanOrEqual(2);
  });

  it('a draft cannot be credited; a paid invoice can, and stays paid', async () => {
    const draft = (await send('POST', '/invoices', { currency: 'EUR', lineItems: [{ name: 'x', price: 10 }] })).body.data;
    const refused = await send('POST', `/invoices/${draft.id}/credit-notes`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.description).toBe('Only an issued invoice can be credited; this one is draft');
    expect(await ctx.tdb.db('credit_notes').where({ invoiceId: draft.id })).toEqual([]);

    const invoice = await issued();
    await send('POST', `/invoices/${invoice.id}/mark-paid`, {});
    // Over tRPC: the same operation, with the body as `data`.
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const note = await trpc.invoices.createCreditNote.mutate({ id: invoice.id, data: { lineItems: [{ line: 1 }] } });
    expect(note).toMatchObject({ amount: 53.5, typeCode: '381' });
    expect(await trpc.invoices.getCreditNotesOfInvoice.query({ id: invoice.id })).toEqual([note]);
    expect((await send('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({ status: 'paid', amountCredited: 53.5, amountDue: 0 });
  });

  it('an invoice partly credited falls overdue for what is left: the notice and the summary say 60, not 100', async () => {
    // A team of its own, so the summary holds this invoice only.
    const owner = await createTeamAndOwner(ctx.tdb.db, 'Credited');
    const teamId = owner.team.id;
    const draft = await send(
      'POST',
      '/invoices',
      { currency: 'EUR', issueDate: '2026-10-01', dueDate: '2026-10-05', lineItems: [{ name: 'Work', price: 100 }] },
      owner.sessionToken,
    );
    const invoice = (await send('POST', `/invoices/${draft.body.data.id}/finalize`, undefined, owner.sessionToken)).body.data;
    expect(invoice).toMatchObject({ status: 'unpaid', amount: 100 });
    const note = await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 0, amount: 40 }] }, owner.sessionToken);
    expect(note.status).toBe(201);

    // The lifecycle's step, as its run takes it the day after the due date (no worker runs here).
    const { config } = ctx.api.deps;
    const deps = { db: ctx.tdb.db, mailer: createMailer(config.SMTP_URL, config.MAIL_FROM), config };
    expect(await performInvoiceStep(deps, { teamId, invoiceId: invoice.id, action: 'mark-overdue' })).toBe('done');
    const [notice] = await notificationsOf(ctx.tdb.db, teamId, 'invoice_overdue');
    expect(notice.metadata).toMatchObject({ invoiceId: invoice.id, amountDue: 60, currency: 'EUR' });
    expect(messageOf('invoice_overdue', notice.metadata).body).toContain('60.00');

    const summary = (await send('GET', '/invoices/summary', undefined, owner.sessionToken)).body.data;
    expect(summary.outstanding).toEqual({ count: 1, amount: 60, byCurrency: [{ currency: 'EUR', count: 1, amount: 60 }] });
    expect(summary.overdue).toMatchObject({ count: 1, amount: 60 });
  });

  it("renders the credit note's PDF: its title, number, the invoice it corrects, negative amounts", async () => {
    const invoice = await issued();
    const note = (
      await send('POST', `/invoices/${invoice.id}/credit-notes`, {
        lineItems: [{ line: 0, quantity: 2 }],
        reason: 'Two hours billed twice',
      })
    ).body.data;
    const res = await ctx.api.fetch(`/invoices/credit-notes/${note.id}/pdf`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${note.creditNoteNumber}.pdf`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const expected of [
      'Credit note',
      note.creditNoteNumber,
      'Corrects invoice',
      invoice.invoiceNumber,
      'Northwind',
      '-€300.00',
      '-€57.00',
      'Total credited',
      '-€357.00',
      'Two hours billed twice',
    ])
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });

    // Page 1 renders as an image (what a viewer shows), not only as extractable text.
    const dir = await mkdtemp(join(tmpdir(), 'credit-note-'));
    try {
      await writeFile(join(dir, 'note.pdf'), bytes);
      await promisify(execFile)('pdftoppm', ['-f', '1', '-l', '1', '-r', '50', '-png', join(dir, 'note.pdf'), join(dir, 'page')]);
      const png = await readFile(join(dir, 'page-1.png'));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(5_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('cancelling an issued invoice issues the credit note of what is left; cancelling a draft issues none', async () => {
    const invoice = await issued();
    await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 1 }] });
    const canceled = await send('POST', `/invoices/${invoice.id}/cancel`, {});
    expect(canceled.status).toBe(200);
    expect(canceled.body.data).toMatchObject({ status: 'canceled', amountCredited: 1738.5 });
    const notes = (await send('GET', `/invoices/${invoice.id}/credit-notes`)).body.data;
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatchObject({
      amount: 1685,
      reason: `Cancellation of invoice ${invoice.invoiceNumber}`,
      discount: 100,
      emailDelivery: false,
    });

    const draft = (await send('POST', '/invoices', { currency: 'EUR', lineItems: [{ name: 'x', price: 10 }] })).body.data;
    expect((await send('POST', `/invoices/${draft.id}/cancel`, {})).status).toBe(200);
    expect((await send('GET', `/invoices/${draft.id}/credit-notes`)).body.data).toEqual([]);
  });

  it("another team's invoice and credit notes are 404, and its list is its own", async () => {
    const invoice = await issued();
    const note = (await send('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 1 }] })).body.data;
    const other = ctx.other.sessionToken;
    expect((await send('POST', `/invoices/${invoice.id}/credit-notes`, {}, other)).status).toBe(404);
    expect((await send('GET', `/invoices/${invoice.id}/credit-notes`, undefined, other)).status).toBe(404);
    expect((await send('GET', `/invoices/credit-notes/${note.id}`, undefined, other)).status).toBe(404);
    expect((await ctx.api.fetch(`/invoices/credit-notes/${note.id}/pdf`, { token: other })).status).toBe(404);
    expect((await send('GET', `/invoices/credit-notes?invoiceId=${invoice.id}`, undefined, other)).body.data).toEqual([]);
    expect((await send('GET', `/invoices/${invoice.id}`)).body.data.amountCredited).toBe(53.5);
  });

  it('200 finalizations at once leave invoice numbers without gaps or repeats; credit notes in parallel too', async () => {
    const { db, temporal } = ctx.api.deps;
    const teamId = ctx.other.team.id;
    const drafts = [];
    for (let i = 0; i < 200; i++)
      drafts.push(
        await createInvoice(db, teamId, null, { currency: 'EUR', lineItems: [{ name: `Item ${i}`, quantity: 1, price: 10 + i }] }),
      );
    await Promise.all(drafts.map((d) => changeInvoiceStatus(db, temporal, { teamId, invoiceId: d.id }, 'finalize')));
    const rows = await db('invoices')
      .where({ teamId })
      .whereIn(
        'id',
        drafts.map((d) => d.id),
      )
      .select('invoiceNumber');
    const numbers = rows.map((r: { invoiceNumber: string }) => r.invoiceNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));

    // 40 credit notes at once on 40 of them: CN-<year>-0001 … 0040.
    const credited = await Promise.all(
      drafts.slice(0, 40).map((d) => send('POST', `/invoices/${d.id}/credit-notes`, {}, ctx.other.sessionToken)),
    );
    expect(credited.map((r) => r.status)).toEqual(credited.map(() => 201));
    expect(credited.map((r) => r.body.data.creditNoteNumber as string).sort()).toEqual(
      Array.from({ length: 40 }, (_, i) => `CN-${year()}-${String(i + 1).padStart(4, '0')}`),
    );
  }, 120_000);
});
