import { simpleParser } from 'mailparser';
import { startOfDayIn } from '../../shared/domain/common/time-zone';
import { pdfText } from '../../shared/domain/receipts/pdf-text';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { invoiceLifecycleId } from '../../shared/temporal/invoice-lifecycle/contract';
import { startSmtpSink, type CapturedMail, type SmtpSink } from '../fakes/smtp-sink';
import { sendJson, statusAndBody } from '../support/api';
import { eventually, eventuallyValue } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';
import { signedDelivery, WEBHOOK_SECRETS } from '../support/webhook-signers';

// A real worker runs InvoiceLifecycle against a real SMTP server; the customer's mailbox is the sink.
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
});
const stack = withStack('invoice-lifecycle', () => ({
  SMTP_URL: smtp.url,
  PUBLIC_URL: 'https://finops.example',
  PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRETS.PAYMENTS_WEBHOOK_SECRET,
}));

const json = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);

let seq = 0;
/** A customer with its own mailbox address, and a draft invoice of 100 + 19 % VAT to them. */
async function draftFor(customer: Record<string, unknown> = {}, invoice: Record<string, unknown> = {}) {
  const email = `billing-${++seq}-${Date.now()}@customer.example`;
  const c = (await json('POST', '/customers', { name: `Customer ${seq}`, billingEmail: email, ...customer })).body.data;
  const created = await json('POST', '/invoices', {
    // Numbered by hand, so each email's subject is known before it is issued (the series is tested in credit-notes.test.ts).
    invoiceNumber: `LC-${seq}`,
    currency: 'EUR',
    customerId: c.id,
    lineItems: [{ name: 'Consulting', quantity: 1, price: 100, vatRate: 19 }],
    ...invoice,
  });
  expect(created.status).toBe(201);
  return { email, customerId: c.id as string, invoice: created.body.data as { id: string; invoiceNumber: string } };
}

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const runOf = async (invoiceId: string) => (await stack.api.deps.temporal.client()).workflow.getHandle(invoiceLifecycleId(invoiceId));
const runStatus = async (invoiceId: string) => (await (await runOf(invoiceId)).describe()).status.name;

describe('InvoiceLifecycle', () => {
  it('sends an invoice now: the PDF attached, a public link that works, the delivery recorded; paid ends the run', async () => {
    const { email, invoice } = await draftFor();
    const sent = await json('POST', `/invoices/${invoice.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'unpaid', emailDelivery: true, amountDue: 119 });

    const mail = await smtp.waitFor((m) => m.to.includes(email), 30_000);
    expect(mail.subject).toBe(`Invoice ${invoice.invoiceNumber} from Acme`);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${invoice.invoiceNumber}.pdf`, 'application/pdf']]);
    expect(parsed.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(parsed.messageId).toBe(`<invoice-${invoice.id}-invoice-0@finops.local>`);
    const link = /https:\/\/finops\.example(\/i\/inv_[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    // The HTML part, for a phone: the same figures, how to pay, and the link as a button.
    const html = String(parsed.html);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const amount = /for (.+?), due on/.exec(mail.text)?.[1];
    expect(amount).toMatch(/119/);
    for (const shown of [amount!, invoice.invoiceNumber, `Please quote ${invoice.invoiceNumber} as the payment reference.`])
      expect(html).toContain(shown);
    expect(html).toContain(`href="https://finops.example${link}"`);
    const page = await fetch(`${stack.api.url}${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(invoice.invoiceNumber);

    const view = await eventuallyValue(async () => {
      const v = (await json('GET', `/invoices/${invoice.id}`)).body.data;
      return v.sentAt && v.lifecycle?.stage === 'awaiting_payment' ? v : undefined;
    }, 20_000);
    // Overdue from the start of the day after the due date, in the team's time zone (UTC here).
    expect(view.lifecycle).toMatchObject({
      nextAction: 'mark-overdue',
      nextActionAt: startOfDayIn(
        new Date(Date.parse(`${view.dueDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
        'UTC',
      ).toISOString(),
      emailsSent: 1,
    });
    expect(await stack.tdb.db('invoice_deliveries').where({ invoiceId: invoice.id })).toEqual([
      expect.objectContaining({ kind: 'invoice', sequence: 0, recipient: email, sentAt: expect.any(Date) }),
    ]);

    expect((await json('POST', `/invoices/${invoice.id}/mark-paid`, { paymentReference: 'SEPA-1' })).body.data.status).toBe('paid');
    await eventually(async () => (await runStatus(invoice.id)) === 'COMPLETED', 20_000, 'the run to end on paid');
    expect((await json('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({ status: 'paid', amountDue: 0, lifecycle: null });
    expect(mailsTo(email)).toHaveLength(1);
  }, 60_000);

  it('attaches the e-invoice the customer chose: XRechnung beside the PDF, Factur-X in its place; the PDF alone when it cannot be made', async () => {
    // A team of its own with the seller data EN 16931 needs, so the other tests keep Acme as it is.
    const seller = await createTeamAndOwner(stack.tdb.db, 'Seller');
    const as = (method: string, path: string, body?: unknown) => json(method, path, body, seller.sessionToken);
    const settings = await as('PATCH', '/teams/current', {
      email: 'billing@seller.example',
      countryCode: 'DE',
      addressLine1: 'Torstraße 1',
      city: 'Berlin',
      zip: '10119',
      vatNumber: 'DE123456789',
      phone: '+49 30 1234567',
      invoicePaymentDetails: 'IBAN DE89 3704 0044 0532 0130 00',
    });
    expect(settings.status).toBe(200);
    const cases = [
      { eInvoiceFormat: 'xrechnung', buyerReference: '991-12345-67', expected: (n: string) => [`${n}.pdf`, `${n}.xrechnung.xml`] },
      { eInvoiceFormat: 'facturx', buyerReference: null, expected: (n: string) => [`${n}.pdf`] },
      // No Leitweg-ID: XRechnung cannot be made, and the invoice still goes out, as its PDF.
      { eInvoiceFormat: 'xrechnung', buyerReference: null, expected: (n: string) => [`${n}.pdf`] },
    ];
    for (const [i, c] of cases.entries()) {
      const email = `e-invoice-${i}-${Date.now()}@customer.example`;
      const customer = await as('POST', '/customers', {
        name: `E-invoice customer ${i}`,
        billingEmail: email,
        countryCode: 'DE',
        city: 'Hamburg',
        zip: '20095',
        eInvoiceFormat: c.eInvoiceFormat,
        buyerReference: c.buyerReference,
      });
      expect(customer.body.data).toMatchObject({ eInvoiceFormat: c.eInvoiceFormat, buyerReference: c.buyerReference });
      const draft = await as('POST', '/invoices', {
        currency: 'EUR',
        customerId: customer.body.data.id,
        lineItems: [{ name: 'Consulting', quantity: 1, price: 100, vatRate: 19 }],
      });
      const sent = await as('POST', `/invoices/${draft.body.data.id}/send`);
      expect(sent.status).toBe(200);
      const number = sent.body.data.invoiceNumber as string;
      const parsed = await simpleParser((await smtp.waitFor((m) => m.to.includes(email), 30_000)).raw);
      expect(parsed.attachments.map((a) => a.filename)).toEqual(c.expected(number));
      if (i === 0) {
        const xml = parsed.attachments[1].content.toString('utf8');
        expect(xml).toContain('<cbc:BuyerReference>991-12345-67</cbc:BuyerReference>');
        expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">119.00</cbc:PayableAmount>');
      }
      // Factur-X: the one PDF carries the XML.
      if (i === 1) expect(parsed.attachments[0].content.toString('latin1')).toContain('/AFRelationship /Alternative');
    }
  });

  it('waits on one timer for a scheduled send: moved earlier it sends once at the new time; unscheduled it sends nothing', async () => {
    const { email, invoice } = await draftFor();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await json('POST', `/invoices/${invoice.id}/schedule`, { sendAt: later });
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', scheduledAt: later, issueDate: null });
    const waiting = await eventuallyValue(async () => {
      const l = (await json('GET', `/invoices/${invoice.id}`)).body.data.lifecycle;
      return l?.stage === 'scheduled' ? l : undefined;
    }, 20_000);
    expect(waiting).toMatchObject({ nextAction: 'send', nextActionAt: later });

    const soon = new Date(Date.now() + 2_000).toISOString();
    expect((await json('POST', `/invoices/${invoice.id}/schedule`, { sendAt: soon })).body.data.scheduledAt).toBe(soon);
    const mail = await smtp.waitFor((m) => m.to.includes(email), 30_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(soon));
    expect(mail.subject).toContain(invoice.invoiceNumber);
    const issued = (await json('GET', `/invoices/${invoice.id}`)).body.data;
    expect(issued).toMatchObject({ status: 'unpaid', scheduledAt: null, issueDate: new Date().toISOString().slice(0, 10) });
    // The first timer was left behind, not fired: one send step in the run's history.
    const history = await (await runOf(invoice.id)).fetchHistory();
    const fired = history.events?.filter((e) => e.timerFiredEventAttributes) ?? [];
    expect(fired).toHaveLength(1);

    const other = await draftFor();
    await json('POST', `/invoices/${other.invoice.id}/schedule`, { sendAt: new Date(Date.now() + 2_000).toISOString() });
    const back = await json('DELETE', `/invoices/${other.invoice.id}/schedule`);
    expect(back.body.data).toMatchObject({ status: 'draft', scheduledAt: null });
    await eventually(async () => (await runStatus(other.invoice.id)) === 'COMPLETED', 20_000, 'the unscheduled run to end');
    await new Promise((r) => setTimeout(r, 2_500));
    expect(mailsTo(other.email)).toHaveLength(0);
    expect(mailsTo(email)).toHaveLength(1);
  }, 60_000);

  it('marks an invoice overdue after its due date, tells the team once, reminds on the cadence once, and part payments lower what is due', async () => {
    expect((await json('PATCH', '/teams/current', { invoiceReminderDays: [3, 3] })).status).toBe(400);
    const team = await json('PATCH', '/teams/current', { invoiceReminderDays: [3, 7, 300] });
    expect(team.body.data.invoiceReminderDays).toEqual([3, 7, 300]);
    const { email, invoice } = await draftFor({ invoiceReminders: true }, { issueDate: '2026-10-01', dueDate: '2026-10-05' });
    expect((await json('POST', `/invoices/${invoice.id}/finalize`)).body.data.status).toBe('unpaid');

    // Finalised, not sent: no invoice email, but the reminders are on for this customer.
    const reminder = await smtp.waitFor((m) => m.to.includes(email), 30_000);
    expect(reminder.subject).toBe(`Reminder: invoice ${invoice.invoiceNumber} from Acme is overdue`);
    expect(reminder.text).toContain('119');
    const view = await eventuallyValue(async () => {
      const v = (await json('GET', `/invoices/${invoice.id}`)).body.data;
      return v.lifecycle?.emailsSent === 1 && v.lifecycle.nextAction === 'remind' ? v : undefined;
    }, 20_000);
    expect(view.status).toBe('overdue');
    // Reminders 1 and 2 (3 and 7 days after) were both due: only the latest went; the third waits for its day.
    expect(view.lifecycle.nextActionAt).toBe(startOfDayIn('2027-08-01', 'UTC').toISOString());
    expect(await stack.tdb.db('invoice_deliveries').where({ invoiceId: invoice.id }).select('kind', 'sequence')).toEqual([
      { kind: 'reminder', sequence: 2 },
    ]);
    const overdue = await notificationsOf(stack.tdb.db, stack.acme.team.id, 'invoice_overdue');
    expect(overdue.filter((n) => n.metadata.invoiceId === invoice.id)).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ dueDate: '2026-10-05', amountDue: 119, currency: 'EUR' }) }),
    ]);

    const part = await json('POST', `/invoices/${invoice.id}/payments`, { amount: 19, reference: 'part' });
    expect(part.status).toBe(201);
    expect(part.body.data).toMatchObject({ status: 'overdue', amountPaid: 19, amountDue: 100 });
    // The PDF shows what is still due.
    const pdf = Buffer.from(await (await stack.api.fetch(`/invoices/${invoice.id}/pdf`, { token: stack.acme.sessionToken })).arrayBuffer());
    const pdfWords = (await pdfText(pdf)).replace(/\s+/g, ' ');
    expect(pdfWords).toContain('Paid −€19.00');
    expect(pdfWords).toContain('Amount due €100.00');
    expect((await json('POST', `/invoices/${invoice.id}/payments`, { amount: 100.01 })).status).toBe(400);
    expect(await runStatus(invoice.id)).toBe('RUNNING');
    const rest = await json('POST', `/invoices/${invoice.id}/payments`, { amount: 100 });
    expect(rest.body.data).toMatchObject({ status: 'paid', amountPaid: 119, amountDue: 0 });
    await eventually(async () => (await runStatus(invoice.id)) === 'COMPLETED', 20_000, 'the run to end once paid in full');
    expect(mailsTo(email)).toHaveLength(1);
    expect(await stack.tdb.db('invoice_payments').where({ invoiceId: invoice.id })).toHaveLength(2);
  }, 60_000);

  it('emails a credit note issued with send: true, its PDF attached; cancelling the emailed invoice emails the cancellation note, then the run ends', async () => {
    const { email, invoice } = await draftFor();
    await json('POST', `/invoices/${invoice.id}/send`);
    await smtp.waitFor((m) => m.to.includes(email), 30_000);

    // 40 of the 100 back, with its 19 % VAT: 47.60 credited, 71.40 still due.
    const created = await json('POST', `/invoices/${invoice.id}/credit-notes`, {
      lineItems: [{ line: 0, amount: 40 }],
      reason: 'Agreed discount',
      send: true,
    });
    expect(created.status).toBe(201);
    const note = created.body.data as { id: string; creditNoteNumber: string };
    expect(created.body.data).toMatchObject({ amount: 47.6, emailDelivery: true });
    const isNote = (number: string) => (m: CapturedMail) => m.to.includes(email) && m.subject.startsWith(`Credit note ${number}`);
    const mail = await smtp.waitFor(isNote(note.creditNoteNumber), 30_000);
    expect(mail.subject).toBe(`Credit note ${note.creditNoteNumber} for invoice ${invoice.invoiceNumber} from Acme`);
    expect(mail.text).toContain('Agreed discount');
    const parsed = await simpleParser(mail.raw);
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`${note.creditNoteNumber}.pdf`, 'application/pdf']]);
    const pdfWords = (await pdfText(parsed.attachments[0].content)).replace(/\s+/g, ' ');
    for (const expected of ['Credit note', note.creditNoteNumber, invoice.invoiceNumber, '-€47.60'])
      expect({ expected, found: pdfWords.includes(expected) }).toEqual({ expected, found: true });
    const sent = await eventuallyValue(async () => {
      const n = (await json('GET', `/invoices/credit-notes/${note.id}`)).body.data;
      return n.sentAt ? n : undefined;
    }, 20_000);
    expect(sent.emailDelivery).toBe(true);
    // The invoice stays open for the rest, and its run goes on waiting for payment.
    expect((await json('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({ status: 'unpaid', amountDue: 71.4 });
    expect(await runStatus(invoice.id)).toBe('RUNNING');

    // The invoice went by email, so its cancellation's credit note (the 71.40 left) does too.
    expect((await json('POST', `/invoices/${invoice.id}/cancel`)).body.data.status).toBe('canceled');
    const notes = (await json('GET', `/invoices/${invoice.id}/credit-notes`)).body.data as { creditNoteNumber: string; amount: number }[];
    const cancellation = notes.find((n) => n.creditNoteNumber !== note.creditNoteNumber)!;
    expect(cancellation.amount).toBe(71.4);
    const second = await smtp.waitFor(isNote(cancellation.creditNoteNumber), 30_000);
    expect((await simpleParser(second.raw)).attachments.map((a) => a.filename)).toEqual([`${cancellation.creditNoteNumber}.pdf`]);
    await eventually(async () => (await runStatus(invoice.id)) === 'COMPLETED', 20_000, 'the run to end once the note went');
    // Each email once: the invoice and its two credit notes.
    expect(mailsTo(email).map((m) => m.subject.split(' ')[0])).toEqual(['Invoice', 'Credit', 'Credit']);
    expect(await stack.tdb.db('invoice_deliveries').where({ invoiceId: invoice.id, kind: 'credit_note' })).toHaveLength(2);
  }, 90_000);

  it('ends when the payment provider reports the invoice paid', async () => {
    const { email, invoice } = await draftFor();
    await json('POST', `/invoices/${invoice.id}/send`);
    await smtp.waitFor((m) => m.to.includes(email), 30_000);
    await eventually(
      async () => (await json('GET', `/invoices/${invoice.id}`)).body.data.lifecycle?.stage === 'awaiting_payment',
      20_000,
      'waiting',
    );
    const event = {
      id: `evt_${Date.now()}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'pi_lifecycle', object: 'payment_intent', metadata: { invoice_id: invoice.id, team_id: stack.acme.team.id } } },
    };
    // Only the payments provider's signature matters here; bank-a's keys are not used.
    const { raw, headers } = await signedDelivery('payments', event, undefined as never);
    expect((await fetch(`${stack.api.url}/webhook/payments`, { method: 'POST', headers, body: raw })).status).toBe(200);
    await eventually(async () => (await runStatus(invoice.id)) === 'COMPLETED', 20_000, 'the run to end on the payment');
    expect(await stack.tdb.db('invoices').where({ id: invoice.id }).first()).toMatchObject({
      status: 'paid',
      paymentReference: 'pi_lifecycle',
    });
  }, 60_000);

  it('refuses what cannot be delivered or scheduled, and changes nothing', async () => {
    const noEmail = await draftFor({ billingEmail: null });
    const refused = await json('POST', `/invoices/${noEmail.invoice.id}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body.description).toContain('no customer email address');
    const past = await json('POST', `/invoices/${noEmail.invoice.id}/schedule`, { sendAt: '2026-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.details).toEqual([{ field: 'sendAt', message: 'must be in the future; send it now instead' }]);
    expect((await json('DELETE', `/invoices/${noEmail.invoice.id}/schedule`)).status).toBe(409);
    expect((await json('POST', `/invoices/${noEmail.invoice.id}/payments`, { amount: 10 })).status).toBe(409);
    expect(await stack.tdb.db('invoices').where({ id: noEmail.invoice.id }).first()).toMatchObject({ status: 'draft', scheduledAt: null });

    const stranger = await createTeamAndOwner(stack.tdb.db, 'Stranger');
    const { invoice } = await draftFor();
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    expect((await json('POST', `/invoices/${invoice.id}/schedule`, { sendAt: soon }, stranger.sessionToken)).status).toBe(404);
    expect((await json('POST', `/invoices/${invoice.id}/send`, undefined, stranger.sessionToken)).status).toBe(404);
  });

  it('schedules, unschedules and records payments over tRPC', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const { email, invoice } = await draftFor();
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    expect(await trpc.invoices.schedule.mutate({ id: invoice.id, data: { sendAt } })).toMatchObject({
      status: 'scheduled',
      scheduledAt: sendAt,
    });
    expect(await trpc.invoices.unschedule.mutate({ id: invoice.id })).toMatchObject({ status: 'draft' });
    expect(await trpc.invoices.send.mutate({ id: invoice.id })).toMatchObject({ status: 'unpaid' });
    await smtp.waitFor((m: CapturedMail) => m.to.includes(email), 30_000);
    expect(await trpc.invoices.recordPayment.mutate({ id: invoice.id, data: { amount: 119 } })).toMatchObject({
      status: 'paid',
      amountDue: 0,
    });
    expect(await trpcError(trpc.invoices.recordPayment.mutate({ id: invoice.id, data: { amount: 1 } }))).toMatchObject({ httpStatus: 409 });
  }, 60_000);
});
