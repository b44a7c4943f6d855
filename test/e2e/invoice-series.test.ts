import { ScheduleNotFoundError } from '@temporalio/client';
import { invoiceSeriesScheduleId } from '../../shared/temporal/invoice-series/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

// Every series issues every 3 seconds here (INVOICE_SERIES_INTERVAL) instead of on its calendar.
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
});
const stack = withStack('invoice-series', () => ({ SMTP_URL: smtp.url, INVOICE_SERIES_INTERVAL: '3s' }));

const json = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);

const template = { name: 'Hosting', currency: 'EUR', lineItems: [{ name: 'Hosting, monthly', quantity: 1, price: 50, vatRate: 20 }] };
let customerId: string;
beforeAll(async () => {
  customerId = (await json('POST', '/customers', { name: 'Retainer Ltd', billingEmail: 'ap@retainer.example' })).body.data.id;
});

const invoicesOf = (seriesId: string) => stack.tdb.db('invoices').where({ seriesId }).orderBy('seriesPeriod');
const scheduleOf = async (seriesId: string) =>
  (await stack.api.deps.temporal.client()).schedule.getHandle(invoiceSeriesScheduleId(seriesId));

describe('recurring invoices', () => {
  it('issues and sends one invoice per period from the template, numbered in turn, and ends after endAfter', async () => {
    const created = await json('POST', '/invoice-series', { ...template, customerId, frequency: 'monthly', endAfter: 3 });
    expect(created.status).toBe(201);
    const series = created.body.data;
    expect(series).toMatchObject({
      status: 'active',
      frequency: 'monthly',
      delivery: 'email',
      customer: { id: customerId, name: 'Retainer Ltd' },
    });

    await eventually(async () => (await invoicesOf(series.id)).length === 3, 30_000, 'three periods');
    await eventually(
      async () => (await json('GET', `/invoice-series/${series.id}`)).body.data.status === 'ended',
      20_000,
      'the series to end',
    );
    // Numbered as each is issued (sent), so read once all are out.
    await eventually(async () => (await invoicesOf(series.id)).every((i) => i.status === 'unpaid'), 20_000, 'all sent');
    const invoices = await invoicesOf(series.id);
    expect(invoices.map((i) => i.amount)).toEqual([60, 60, 60]);
    const numbers = invoices.map((i) => Number(/^INV-(\d+)$/.exec(i.invoiceNumber)?.[1]));
    expect(numbers).toEqual([numbers[0], numbers[0] + 1, numbers[0] + 2]);
    // Each was sent by its own InvoiceLifecycle: three emails, one per invoice.
    await eventually(
      () => Promise.resolve(smtp.messages.filter((m) => m.to.includes('ap@retainer.example')).length >= 3),
      30_000,
      'three emails',
    );
    const subjects = smtp.messages.filter((m) => m.to.includes('ap@retainer.example')).map((m) => m.subject);
    expect(subjects.sort()).toEqual(invoices.map((i) => `Invoice ${i.invoiceNumber} from Acme`).sort());
    await eventually(async () => (await invoicesOf(series.id)).every((i) => i.status === 'unpaid'), 20_000, 'all sent');

    const view = (await json('GET', `/invoice-series/${series.id}`)).body.data;
    expect(view).toMatchObject({ status: 'ended', issuedCount: 3, nextIssueAt: null });
    await expect((await scheduleOf(series.id)).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await json('PATCH', `/invoice-series/${series.id}`, { status: 'active' })).status).toBe(409);
    expect(await invoicesOf(series.id)).toHaveLength(3);
  }, 90_000);

  it('pausing stops the next invoice, resuming brings them back, deleting keeps what was issued', async () => {
    const series = (await json('POST', '/invoice-series', { ...template, customerId, frequency: 'weekly', delivery: 'finalize' })).body
      .data;
    await eventually(async () => (await invoicesOf(series.id)).length >= 1, 20_000, 'the first invoice');

    const paused = await json('PATCH', `/invoice-series/${series.id}`, { status: 'paused', note: 'Thanks!' });
    expect(paused.body.data).toMatchObject({ status: 'paused', note: 'Thanks!', nextIssueAt: null });
    const inList = async () => (await json('GET', '/invoice-series')).body.data.find((s: { id: string }) => s.id === series.id);
    expect(await inList()).toMatchObject({ status: 'paused', nextIssueAt: null });
    expect((await (await scheduleOf(series.id)).describe()).state.paused).toBe(true);
    // A run that had already begun may still finish; after that, nothing for three periods.
    await new Promise((r) => setTimeout(r, 2_000));
    const atPause = (await invoicesOf(series.id)).length;
    await new Promise((r) => setTimeout(r, 7_000));
    expect(await invoicesOf(series.id)).toHaveLength(atPause);

    expect((await json('PATCH', `/invoice-series/${series.id}`, { status: 'active' })).body.data.nextIssueAt).not.toBeNull();
    expect((await inList()).nextIssueAt).not.toBeNull();
    await eventually(async () => (await invoicesOf(series.id)).length > atPause, 20_000, 'an invoice after resuming');
    const resumed = (await invoicesOf(series.id)).at(-1);
    // The template change applies from the next invoice; delivery `finalize` issues without an email.
    expect(resumed).toMatchObject({ note: 'Thanks!' });
    await eventually(async () => (await stack.tdb.db('invoices').where({ id: resumed.id }).first()).status === 'unpaid', 20_000, 'issued');
    expect(smtp.messages.filter((m) => m.subject.includes(resumed.invoiceNumber))).toHaveLength(0);

    expect((await json('DELETE', `/invoice-series/${series.id}`)).status).toBe(204);
    await expect((await scheduleOf(series.id)).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect(await stack.tdb.db('invoices').where({ id: resumed.id }).first()).toMatchObject({ seriesId: null });
    expect((await json('GET', `/invoice-series/${series.id}`)).status).toBe(404);
  }, 90_000);

  it('refuses bad series, keeps teams apart, and speaks tRPC', async () => {
    const stranger = await createTeamAndOwner(stack.tdb.db, 'Stranger');
    const foreign = await json('POST', '/invoice-series', { ...template, customerId, frequency: 'monthly' }, stranger.sessionToken);
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual([{ field: 'customerId', message: 'no such customer in your team' }]);
    const past = await json('POST', '/invoice-series', { ...template, customerId, frequency: 'monthly', startDate: '2020-01-01' });
    expect(past.status).toBe(400);
    expect(await stack.tdb.db('invoice_series').where({ teamId: stranger.team.id })).toHaveLength(0);

    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const created = await trpc.invoiceSeries.create.mutate({ ...template, customerId, frequency: 'quarterly', startDate: later });
    expect(created).toMatchObject({ frequency: 'quarterly', startDate: later, issuedCount: 0 });
    expect((await trpc.invoiceSeries.get.query({})).data.map((s) => s.id)).toContain(created.id);
    expect(await trpc.invoiceSeries.getById.query({ id: created.id })).toMatchObject({
      id: created.id,
      frequency: 'quarterly',
      startDate: later,
      customer: { id: customerId },
    });
    // The list says when each issues next, as GET by id does: here the next 3-second tick counted
    // from the series' creation (to the second).
    const listed = (await json('GET', '/invoice-series')).body.data.find((s: { id: string }) => s.id === created.id);
    const byId = (await json('GET', `/invoice-series/${created.id}`)).body.data;
    const madeAt = Math.floor(Date.parse(byId.createdAt) / 1000) * 1000;
    for (const next of [listed.nextIssueAt, byId.nextIssueAt]) {
      expect(next).not.toBeNull();
      expect((Date.parse(next) - madeAt) % 3_000).toBe(0);
      expect(Math.abs(Date.parse(next) - Date.now())).toBeLessThanOrEqual(3_500);
    }
    expect(await trpcError(trpcAs(stack.api, stranger.sessionToken).invoiceSeries.getById.query({ id: created.id }))).toMatchObject({
      httpStatus: 404,
    });
    const renamed = await trpc.invoiceSeries.update.mutate({ id: created.id, data: { name: 'Quarterly support', endAfter: 4 } });
    expect(renamed).toMatchObject({ name: 'Quarterly support', endAfter: 4, status: 'active' });
    await trpc.invoiceSeries.delete.mutate({ id: created.id });
  }, 60_000);
});
