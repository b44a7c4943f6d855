import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../db/constraint-errors';
import { CreditNote, Customer, Invoice, InvoiceLineItem, TrackerEntry } from '../../db/models';
import { toIso, toIsoOrNull } from '../../db/timestamps';
import { AppError, badRequest, conflict, notFound } from '../../errors';
import type { Page } from '../common/cursor';
import { sortedPage, type SortKeys } from '../common/sort';
import { containsPattern } from '../common/query';
import { amountDue } from './amount-due';
import type { CreateInvoiceBody, INVOICE_SORT_FIELDS, InvoiceDto, ListInvoicesQuery, UpdateInvoiceBody } from './schema';
import { lockInvoice } from './status';
import { invoiceTotals } from './totals';

/** An invoice as the list selects it: its columns, and its customer and lines as json. */
type InvoiceRow = ModelObject<Invoice> & { customer: InvoiceDto['customer']; lineItems: InvoiceDto['lineItems'] };

/**
 * Where each field of `sort=` lives, each with a (team_id, field, id) index (migrations 0001, 0086;
 * the number's is the unique (team_id, invoice_number)). A draft may have no dates yet: it sorts
 * after every dated invoice ascending, before them descending.
 */
const SORT_KEYS: SortKeys<(typeof INVOICE_SORT_FIELDS)[number]> = {
  fields: {
    createdAt: { sql: 'i.created_at', part: 'timestamp' },
    issueDate: { sql: 'i.issue_date', part: 'date', nullable: true },
    dueDate: { sql: 'i.due_date', part: 'date', nullable: true },
    amount: { sql: 'i.amount', part: 'number' },
    invoiceNumber: { sql: 'i.invoice_number', part: 'text' },
  },
  id: 'i.id',
};

// A list query (keyset, customer and lines as json in the same round trip): typed Knex.
function selectInvoices(db: Db, teamId: string) {
  return db('invoices as i')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .where('i.team_id', teamId)
    .select<InvoiceRow[]>(
      'i.*',
      db.raw(`case when c.id is null then null else json_build_object('id', c.id, 'name', c.name) end as customer`),
      // json_agg returns numerics as JSON numbers already.
      db.raw(`coalesce((select json_agg(json_build_object('name', l.name, 'quantity', l.quantity, 'unit', l.unit, 'price', l.price,
                          'vatRate', l.vat_rate, 'taxRate', l.tax_rate) order by l.position)
                        from invoice_line_items l where l.invoice_id = i.id), '[]') as line_items`),
    );
}

function toDto({
  teamId: _team,
  customerId: _customer,
  createdBy: _creator,
  seriesPeriod: _period,
  scheduledAt,
  sentAt,
  paidAt,
  refundedAt,
  canceledAt,
  viewedAt,
  createdAt,
  updatedAt,
  ...fields
}: InvoiceRow): InvoiceDto {
  const open = ['draft', 'scheduled', 'unpaid', 'overdue'].includes(fields.status);
  return {
    ...fields,
    amountDue: open ? amountDue(fields) : 0,
    scheduledAt: toIsoOrNull(scheduledAt),
    sentAt: toIsoOrNull(sentAt),
    paidAt: toIsoOrNull(paidAt),
    refundedAt: toIsoOrNull(refundedAt),
    canceledAt: toIsoOrNull(canceledAt),
    viewedAt: toIsoOrNull(viewedAt),
    createdAt: toIso(createdAt),
    updatedAt: toIso(updatedAt),
  };
}

export async function listInvoices(db: Db, teamId: string, query: ListInvoicesQuery): Promise<Page<InvoiceDto>> {
  const q = selectInvoices(db, teamId);
  if (query.statuses) q.whereIn('i.status', query.statuses);
  if (query.customers) q.whereIn('i.customer_id', query.customers);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) => {
      w.whereILike('i.invoice_number', like).orWhereILike('c.name', like);
    });
  }
  return sortedPage(db, q, SORT_KEYS, query, toDto);
}

export async function getInvoice(db: Db, teamId: string, id: string): Promise<InvoiceDto> {
  const row = (await selectInvoices(db, teamId).where('i.id', id)).at(0);
  if (!row) throw notFound(`Invoice ${id} not found`);
  return toDto(row);
}

async function assertCustomer(db: Db, teamId: string, customerId: string | null | undefined) {
  if (customerId && !(await Customer.query(db).findOne({ teamId, id: customerId }).select('id'))) {
    throw badRequest('Invalid customer', [{ field: 'customerId', message: 'no such customer in your team' }]);
  }
}

const assertNotNegative = (totals: { amount: number }) => {
  if (totals.amount < 0)
    throw badRequest('The discount exceeds the invoice total', [{ field: 'discount', message: 'larger than the total' }]);
};

async function writeLines(db: Db, teamId: string, invoiceId: string, lines: NonNullable<UpdateInvoiceBody['lineItems']>) {
  await InvoiceLineItem.query(db).where({ teamId, invoiceId }).delete();
  await InvoiceLineItem.query(db).insert(
    lines.map((l, position) => ({
      teamId,
      invoiceId,
      position,
      name: l.name,
      quantity: l.quantity,
      unit: l.unit ?? null,
      price: l.price,
      vatRate: l.vatRate ?? null,
      taxRate: l.taxRate ?? null,
    })),
  );
}

/** Creates a draft. It is numbered when it is issued, unless a number is chosen here (one already used is 409). */
export async function createInvoice(db: Db, teamId: string, userId: string | null, body: CreateInvoiceBody): Promise<InvoiceDto> {
  await assertCustomer(db, teamId, body.customerId);
  const totals = invoiceTotals(body.lineItems, body.discount ?? 0, body.currency);
  assertNotNegative(totals);
  try {
    const id = await db.transaction(async (trx) => {
      const { lineItems, invoiceNumber, ...fields } = body;
      const created = await Invoice.query(trx).insert({
        ...fields,
        ...totals,
        teamId,
        createdBy: userId,
        status: 'draft',
        invoiceNumber: invoiceNumber ?? null,
      });
      await writeLines(trx, teamId, created.id, lineItems);
      return created.id;
    });
    return await getInvoice(db, teamId, id);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`Invoice number ${body.invoiceNumber} is already used`);
    throw err;
  }
}

/**
 * What an edit of an invoice that is no longer a draft is told. From finalize on an invoice is a
 * document of the books: everything printed on it (lines, amounts, customer, dates, number, currency,
 * discount, note) stays as issued, and a correction is a credit note.
 */
function lockedInvoice(invoice: Invoice, fields: string[]): AppError {
  const issued = invoice.invoiceNumber !== null && !['draft', 'scheduled'].includes(invoice.status);
  const description = issued
    ? `Invoice ${invoice.invoiceNumber} is issued (${invoice.status}) and locked: ${fields.join(', ')} cannot change. Correct it with a credit note (POST /invoices/${invoice.id}/credit-notes).`
    : `Only drafts can be edited; this invoice is ${invoice.status}${invoice.status === 'scheduled' ? ' (unschedule it first)' : ''}: ${fields.join(', ')} cannot change.`;
  return new AppError(
    409,
    'Conflict',
    description,
    fields.map((field) => ({ field, message: issued ? 'locked: the invoice is issued' : `locked: the invoice is ${invoice.status}` })),
  );
}

export async function updateInvoice(db: Db, teamId: string, id: string, body: UpdateInvoiceBody): Promise<InvoiceDto> {
  await db.transaction(async (trx) => {
    const current = await lockInvoice(trx, teamId, id);
    if (!current) throw notFound(`Invoice ${id} not found`);
    if (current.status !== 'draft') throw lockedInvoice(current, Object.keys(body));
    await assertCustomer(trx, teamId, body.customerId);
    const { lineItems, ...fields } = body;
    const lines = lineItems ?? (await InvoiceLineItem.query(trx).where({ teamId, invoiceId: id }).orderBy('position'));
    const totals = invoiceTotals(lines, body.discount ?? current.discount, body.currency ?? current.currency);
    assertNotNegative(totals);
    const issueDate = body.issueDate === undefined ? current.issueDate : body.issueDate;
    const dueDate = body.dueDate === undefined ? current.dueDate : body.dueDate;
    if (issueDate && dueDate && issueDate > dueDate) throw badRequest('Invalid dates', [{ field: 'dueDate', message: 'before issueDate' }]);
    await Invoice.query(trx)
      .findOne({ teamId, id })
      .patch({ ...fields, ...totals, updatedAt: new Date() });
    if (lineItems) await writeLines(trx, teamId, id, lineItems);
  });
  return getInvoice(db, teamId, id);
}

/** Only drafts and canceled invoices can be deleted: an issued invoice is part of the books. */
export async function deleteInvoice(db: Db, teamId: string, id: string): Promise<void> {
  const row = await Invoice.query(db).findOne({ teamId, id }).select('status');
  if (!row) throw notFound(`Invoice ${id} not found`);
  if (row.status !== 'draft' && row.status !== 'canceled')
    throw conflict(`Only draft or canceled invoices can be deleted; this one is ${row.status}`);
  // A canceled invoice that was issued has its credit note: both are part of the books.
  if (await CreditNote.query(db).findOne({ teamId, invoiceId: id }).select('id'))
    throw conflict('This invoice was issued and credited: it and its credit notes are part of the books and cannot be deleted');
  await db.transaction(async (trx) => {
    // Time billed by this invoice can be billed again.
    await TrackerEntry.query(trx).where({ teamId, invoiceId: id }).patch({ billed: false, invoiceId: null });
    await Invoice.query(trx).findOne({ teamId, id }).delete();
  });
}
