import type { Db } from '../../db/knex';
import { Customer, Invoice, InvoiceSeries, Team } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { AppError, badRequest, conflict, notFound, workflowServiceUnreachable } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import {
  keepInvoiceSeriesScheduled,
  removeInvoiceSeriesSchedule,
  type SeriesAbout,
  type SeriesRhythm,
} from '../../temporal/invoice-series/calls';
import type { SeriesIssue } from '../../temporal/invoice-series/contract';
import { newestFirstPage, type Page } from '../common/cursor';
import { startOfDayIn, todayIn } from '../common/time-zone';
import { changeInvoiceStatus, sendInvoice } from '../invoices/lifecycle';
import { createInvoice } from '../invoices/service';
import { invoiceTotals } from '../invoices/totals';
import { notify } from '../notifications/service';
import { addDays } from '../reports/period';
import { nextSeriesIssueAt } from './next-issue';
import type { CreateInvoiceSeriesBody, InvoiceSeriesDto, ListInvoiceSeriesQuery, UpdateInvoiceSeriesBody } from './schema';
import { numberShown } from '../invoices/numbering';

/** The team's series that have not ended: each has a schedule that may still issue an invoice. */
export async function unendedSeriesIds(db: Db, teamId: string): Promise<string[]> {
  return (await InvoiceSeries.query(db).where({ teamId }).whereNot({ status: 'ended' }).select('id')).map((s) => s.id);
}

/** Where the schedule comes from: the series, the team's zone, and the demo interval when configured. */
export interface SeriesScheduling {
  temporal: TemporalGateway;
  intervalMs?: number;
}

const rhythmOf = (
  s: Pick<InvoiceSeries, 'id' | 'teamId' | 'frequency' | 'startDate' | 'endDate' | 'status' | 'createdAt'>,
  timezone: string | null,
  intervalMs?: number,
): SeriesRhythm => {
  const zone = timezone ?? 'UTC';
  return {
    id: s.id,
    teamId: s.teamId,
    frequency: s.frequency,
    startDate: s.startDate,
    startAt: startOfDayIn(s.startDate, zone),
    // The series ends with its last day, where the team is.
    endAt: s.endDate ? new Date(startOfDayIn(s.endDate, zone).getTime() + 86_400_000) : undefined,
    status: s.status,
    timezone: zone,
    intervalMs,
    createdAt: s.createdAt,
  };
};

/** What the series' runs are listed by: its name, its customer, and what each invoice comes to. */
const aboutOf = (s: InvoiceSeries, customerName: string | null): SeriesAbout => ({
  name: s.name,
  customerName,
  amount: invoiceTotals(s.lineItems, s.discount, s.currency).amount,
  currency: s.currency,
});

type SeriesRow = InvoiceSeries & { cursorCreatedAt: string; customerName: string; teamTimezone: string | null };

function selectSeries(db: Db, teamId: string) {
  return db('invoice_series as s')
    .join('customers as c', 'c.id', 's.customer_id')
    .join('teams as t', 't.id', 's.team_id')
    .where('s.team_id', teamId)
    .select<SeriesRow[]>(
      's.*',
      db.raw('s.created_at::text as cursor_created_at'),
      'c.name as customer_name',
      't.timezone as team_timezone',
    );
}

/**
 * The series as the API shows it. `nextIssueAt` is worked out from the series' own rhythm, as its
 * schedule runs on it (`intervalMs`: the demo interval the schedules were made with, when configured).
 */
function toDto(row: SeriesRow, intervalMs: number | undefined, now: Date): InvoiceSeriesDto {
  const nextIssueAt = nextSeriesIssueAt(rhythmOf(row, row.teamTimezone, intervalMs), now);
  return {
    id: row.id,
    name: row.name,
    customer: { id: row.customerId, name: row.customerName },
    currency: row.currency,
    lineItems: row.lineItems,
    discount: row.discount,
    note: row.note,
    frequency: row.frequency,
    startDate: row.startDate,
    endAfter: row.endAfter,
    endDate: row.endDate,
    dueInDays: row.dueInDays,
    delivery: row.delivery,
    status: row.status,
    issuedCount: row.issuedCount,
    lastIssuedAt: toIsoOrNull(row.lastIssuedAt),
    nextIssueAt: toIsoOrNull(nextIssueAt),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

export async function listInvoiceSeries(
  db: Db,
  teamId: string,
  query: ListInvoiceSeriesQuery,
  intervalMs?: number,
): Promise<Page<InvoiceSeriesDto>> {
  const q = selectSeries(db, teamId);
  if (query.status) q.where('s.status', query.status);
  const now = new Date();
  return newestFirstPage(q, 's', query, (row) => toDto(row, intervalMs, now));
}

export async function getInvoiceSeries(db: Db, teamId: string, id: string, intervalMs?: number): Promise<InvoiceSeriesDto> {
  const row = (await selectSeries(db, teamId).where('s.id', id)).at(0);
  if (!row) throw notFound(`Invoice series ${id} not found`);
  return toDto(row, intervalMs, new Date());
}

function assertTemplate(lines: CreateInvoiceSeriesBody['lineItems'], discount: number, currency: string) {
  if (invoiceTotals(lines, discount, currency).amount < 0) {
    throw badRequest('The discount exceeds the invoice total', [{ field: 'discount', message: 'larger than the total' }]);
  }
}

/**
 * Saves the series and its schedule in one step: the schedule is made inside the transaction, so a
 * Temporal that cannot be reached leaves no series behind (503). A series that starts today issues
 * its first invoice at once.
 */
export async function createInvoiceSeries(
  db: Db,
  scheduling: SeriesScheduling,
  target: { teamId: string; userId: string | null },
  body: CreateInvoiceSeriesBody,
): Promise<InvoiceSeriesDto> {
  const { teamId } = target;
  const customer = await Customer.query(db).findOne({ teamId, id: body.customerId }).select('name');
  if (!customer) throw badRequest('Invalid customer', [{ field: 'customerId', message: 'no such customer in your team' }]);
  assertTemplate(body.lineItems, body.discount ?? 0, body.currency);
  const team = await Team.query(db).findById(teamId).select('timezone').throwIfNotFound();
  const today = todayIn(team.timezone ?? 'UTC');
  const startDate = body.startDate ?? today;
  if (startDate < today) throw badRequest('Invalid startDate', [{ field: 'startDate', message: 'must not be in the past' }]);
  if (body.endDate && body.endDate < startDate) throw badRequest('Invalid endDate', [{ field: 'endDate', message: 'before startDate' }]);
  const id = await db.transaction(async (trx) => {
    const series = await InvoiceSeries.query(trx)
      .insert({
        teamId,
        customerId: body.customerId,
        name: body.name,
        currency: body.currency,
        lineItems: body.lineItems,
        discount: body.discount ?? 0,
        note: body.note ?? null,
        frequency: body.frequency,
        startDate,
        endAfter: body.endAfter ?? null,
        endDate: body.endDate ?? null,
        dueInDays: body.dueInDays ?? 30,
        delivery: body.delivery ?? 'email',
        status: 'active',
        createdBy: target.userId,
      })
      .returning('*');
    await keepInvoiceSeriesScheduled(
      scheduling.temporal,
      rhythmOf(series, team.timezone, scheduling.intervalMs),
      aboutOf(series, customer.name),
      startDate === today,
    ).catch((err: unknown) => {
      throw workflowServiceUnreachable(err);
    });
    return series.id;
  });
  return getInvoiceSeries(db, teamId, id, scheduling.intervalMs);
}

/** Template changes apply from the next invoice; `status` pauses or resumes the schedule. An ended series is 409. */
export async function updateInvoiceSeries(
  db: Db,
  scheduling: SeriesScheduling,
  teamId: string,
  id: string,
  body: UpdateInvoiceSeriesBody,
): Promise<InvoiceSeriesDto> {
  await db.transaction(async (trx) => {
    const current = await InvoiceSeries.query(trx).findOne({ teamId, id }).forUpdate();
    if (!current) throw notFound(`Invoice series ${id} not found`);
    if (current.status === 'ended') throw conflict('This series has ended; create a new one');
    assertTemplate(body.lineItems ?? current.lineItems, body.discount ?? current.discount, current.currency);
    const endDate = body.endDate === undefined ? current.endDate : body.endDate;
    if (endDate && endDate < current.startDate) throw badRequest('Invalid endDate', [{ field: 'endDate', message: 'before startDate' }]);
    const [updated] = await InvoiceSeries.query(trx)
      .patch({ ...body, updatedAt: new Date() })
      .where({ teamId, id })
      .returning('*');
    const team = await Team.query(trx).findById(teamId).select('timezone').throwIfNotFound();
    const customer = await Customer.query(trx).findOne({ teamId, id: updated.customerId }).select('name');
    await keepInvoiceSeriesScheduled(
      scheduling.temporal,
      rhythmOf(updated, team.timezone, scheduling.intervalMs),
      aboutOf(updated, customer?.name ?? null),
    ).catch((err: unknown) => {
      throw workflowServiceUnreachable(err);
    });
  });
  return getInvoiceSeries(db, teamId, id, scheduling.intervalMs);
}

/** Ends the series for good: its schedule goes, and the invoices it issued stay (no longer linked to it). */
export async function deleteInvoiceSeries(db: Db, temporal: TemporalGateway, teamId: string, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    const current = await InvoiceSeries.query(trx).findOne({ teamId, id }).forUpdate();
    if (!current) throw notFound(`Invoice series ${id} not found`);
    await removeInvoiceSeriesSchedule(temporal, id).catch((err: unknown) => {
      throw workflowServiceUnreachable(err);
    });
    await InvoiceSeries.query(trx).delete().where({ teamId, id });
  });
}

/**
 * The invoice of one period (`period`: the moment the schedule meant the run for), created once: a
 * retried run finds the one it made. Nothing for a series paused, ended or gone; the invoice that
 * reaches `endAfter` or the last one before `endDate` ends the series.
 */
export async function issueSeriesInvoice(db: Db, input: { teamId: string; seriesId: string; period: string }): Promise<SeriesIssue> {
  const { teamId, seriesId, period } = input;
  return db.transaction(async (trx) => {
    const series = await InvoiceSeries.query(trx).findOne({ teamId, id: seriesId }).forUpdate();
    if (!series) return { invoiceId: null, skipped: 'gone', last: true };
    const made = await Invoice.query(trx)
      .findOne({ teamId, seriesId, seriesPeriod: new Date(period) })
      .select('id');
    if (made) return { invoiceId: made.id, skipped: null, last: series.status === 'ended' };
    if (series.status !== 'active') return { invoiceId: null, skipped: series.status, last: series.status === 'ended' };
    const team = await Team.query(trx).findById(teamId).select('timezone').throwIfNotFound();
    const today = todayIn(team.timezone ?? 'UTC', new Date(period));
    if (series.endDate && today > series.endDate) {
      await InvoiceSeries.query(trx).patch({ status: 'ended', updatedAt: new Date() }).where({ id: seriesId });
      return { invoiceId: null, skipped: 'ended', last: true };
    }
    const invoice = await createInvoice(trx, teamId, series.createdBy, {
      currency: series.currency,
      customerId: series.customerId,
      lineItems: series.lineItems,
      discount: series.discount,
      note: series.note,
      issueDate: today,
      dueDate: addDays(today, series.dueInDays),
    });
    await Invoice.query(trx)
      .patch({ seriesId, seriesPeriod: new Date(period) })
      .where({ teamId, id: invoice.id });
    const issuedCount = series.issuedCount + 1;
    const last = (series.endAfter !== null && issuedCount >= series.endAfter) || (series.endDate !== null && today === series.endDate);
    await InvoiceSeries.query(trx)
      .patch({ issuedCount, lastIssuedAt: new Date(), status: last ? 'ended' : series.status, updatedAt: new Date() })
      .where({ id: seriesId });
    return { invoiceId: invoice.id, skipped: null, last };
  });
}

/**
 * Sends (or only issues) a series invoice that is still a draft; one already out is left alone. A
 * customer without an email address gets the invoice issued, and the team is told.
 */
export async function deliverSeriesInvoice(
  db: Db,
  temporal: TemporalGateway,
  input: { teamId: string; seriesId: string; invoiceId: string },
): Promise<'sent' | 'finalized' | 'already_out'> {
  const { teamId, invoiceId } = input;
  const invoice = await Invoice.query(db).findOne({ teamId, id: invoiceId }).select('status', 'invoiceNumber');
  if (invoice?.status !== 'draft') return 'already_out';
  const series = await InvoiceSeries.query(db).findOne({ teamId, id: input.seriesId }).select('delivery');
  if ((series?.delivery ?? 'email') === 'email') {
    try {
      await sendInvoice(db, temporal, teamId, invoiceId);
      return 'sent';
    } catch (err) {
      if (!(err instanceof AppError && err.status === 409)) throw err;
      await notify(db, {
        teamId,
        type: 'invoice_undeliverable',
        metadata: { invoiceId, invoiceNumber: numberShown(invoice), kind: 'invoice' },
      });
    }
  }
  await changeInvoiceStatus(db, temporal, { teamId, invoiceId }, 'finalize');
  return 'finalized';
}
